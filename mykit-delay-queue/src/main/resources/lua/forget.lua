-- Drops jobs from Redis after they were delivered (ack) or buried in the journal (dead): wherever they are.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] restore marker of the bucket: while it exists, every end leaves a tombstone
-- KEYS[6] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- KEYS[7] stage counters HASH of the bucket
-- ARGV    job ids
-- Returns the number of jobs that were still in the pool.
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local restoring = redis.call('EXISTS', KEYS[5]) == 1
local ended = KEYS[6]
local counts = KEYS[7]

--#include record
--#include counters
--#include waiting

-- w waiting in a due slice, f in flight, r ready (in the pool, in neither set)
local function stageOf(id)
    if waitingScore(due, id) then
        return 'w'
    end
    if redis.call('ZSCORE', inflight, id) then
        return 'f'
    end
    return 'r'
end

local now
if restoring then
    local t = redis.call('TIME')
    now = t[1] * 1000 + math.floor(t[2] / 1000)
end
local dropped = 0
for _, id in ipairs(ARGV) do
    local record = redis.call('HGET', pool, id)
    if record then
        bump(stageOf(id), topicOf(record), -1)
    end
    unwait(due, id)
    redis.call('ZREM', inflight, id)
    redis.call('HDEL', reserved, id)
    dropped = dropped + redis.call('HDEL', pool, id)
    if restoring then
        redis.call('ZADD', ended, now, id)
    end
end
saveCounts(counts)
return dropped
