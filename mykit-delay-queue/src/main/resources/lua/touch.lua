-- Extends a puller's reservation of a job to a new deadline.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] pull reservation counts HASH of the bucket
-- ARGV[1] job id
-- ARGV[2] ttr, ms: the new deadline is Redis TIME plus this
-- Returns 1 extended, 0 not reserved.
local inflight = KEYS[1]
local reserved = KEYS[2]
local id = ARGV[1]

--#include clock

if redis.call('HEXISTS', reserved, id) == 0 or not redis.call('ZSCORE', inflight, id) then
    return 0
end
redis.call('ZADD', inflight, 'XX', nowMs() + tonumber(ARGV[2]), id)
return 1
