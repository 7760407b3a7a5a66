-- Parks in-flight jobs that are to be buried (their last send failed, or their ttl ran out) before their Dead is
-- journaled: each takes its new record, which counts its tries used up (lua/include/record.lua markedSpent), and stays
-- in flight until the Redis clock passes ARGV[2] ms from now. A sweep finds such a job spent and hands it back only to
-- be buried again, and a retry leaves it where it is (retry.lua), so nothing hands it out again whatever happens to
-- the burial's later steps (journal Dead, then forget). A job no longer in flight (swept back meanwhile) is left to
-- the hand-over that has it now.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] job pool HASH of the bucket
-- KEYS[3] owner STRING of the bucket: the newest fencing token
-- ARGV[1] the caller's fencing token ('' = not fenced)
-- ARGV[2] how long the jobs stay parked, ms
-- ARGV[3..] id1, record1, id2, record2, ...
-- Returns the ids parked.
local inflight = KEYS[1]
local pool = KEYS[2]
local owner = KEYS[3]
local token = ARGV[1]

--#include clock

--#include fence_check
local parkedUntil = nowMs() + tonumber(ARGV[2])

local parked = {}
for i = 3, #ARGV, 2 do
    local id, record = ARGV[i], ARGV[i + 1]
    -- a job gone from the pool ended meanwhile; its in-flight entry (if any) is the sweeper's to drop
    if redis.call('ZSCORE', inflight, id) and redis.call('HEXISTS', pool, id) == 1 then
        redis.call('HSET', pool, id, record)
        redis.call('ZADD', inflight, parkedUntil, id)
        parked[#parked + 1] = id
    end
end
return parked
