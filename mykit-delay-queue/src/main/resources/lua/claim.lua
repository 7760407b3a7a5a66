-- Records a new ownership term of one bucket: its fencing token becomes the newest unless a newer one is there.
-- KEYS[1] owner STRING of the bucket
-- ARGV[1] the claiming node's token (20-digit zero-padded, so string order is number order)
-- Returns 1 claimed, or the error FENCED when a newer term already claimed the bucket.
local owner = KEYS[1]
local token = ARGV[1]

--#include fence
local refused = refusal(owner, token)
if refused then
    return refused
end
redis.call('SET', owner, token)
return 1
