-- Replaces a waiting job's record and due time (PUT /jobs/{id}): only while it waits in its bucket. A job already
-- pumped (in flight, or in a pull topic's ready list) may be delivered now: it is refused. The topic stays the same,
-- so the stage counters stay right.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- ARGV[1] job id
-- ARGV[2] new due time (score)
-- ARGV[3] new record
-- Returns 1 rescheduled, 0 not in Redis, -1 refused because no longer waiting.
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local id = ARGV[1]
local score = ARGV[2]
local record = ARGV[3]

--#include waiting

if redis.call('HEXISTS', pool, id) == 0 then
    return 0
end
if redis.call('ZSCORE', inflight, id) or not waitingScore(due, id) then
    return -1
end
redis.call('HSET', pool, id, record)
wait(due, id, score)
return 1
