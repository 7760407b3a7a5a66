-- Puts jobs in their bucket with fresh records whatever Redis held of them (dead-letter respawn): the journal
-- already moved them back to pending, so a leftover record or in-flight entry must not strand them.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] stage counters HASH of the bucket
-- ARGV    id1, score1, record1, id2, score2, record2, ...
-- Returns the number of jobs respawned.
--#include record
--#include counters
--#include stage
local reserved = KEYS[4]
local counts = KEYS[5]

local respawned = 0
for i = 1, #ARGV, 3 do
    local id, score, record = ARGV[i], ARGV[i + 1], ARGV[i + 2]
    local old = redis.call('HGET', pool, id)
    if old then
        bump(stageOf(id), topicOf(old), -1)
    end
    bump('w', topicOf(record), 1)
    redis.call('HSET', pool, id, record)
    redis.call('ZREM', inflight, id)
    redis.call('HDEL', reserved, id)
    wait(due, id, score)
    respawned = respawned + 1
end
saveCounts(counts)
return respawned
