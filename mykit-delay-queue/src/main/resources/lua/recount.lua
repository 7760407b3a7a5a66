-- Counts one bucket's jobs per topic and stage afresh: once for stores written before the counters existed, and
-- whenever the counters are missing. Reads the whole bucket (HSCAN of the pool), so it runs rarely, never per request.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] stage counters HASH of the bucket
-- Returns the number of jobs counted.
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local counts = KEYS[4]

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

redis.call('DEL', counts)
local jobs = 0
local cursor = '0'
repeat
    local page = redis.call('HSCAN', pool, cursor, 'COUNT', 500)
    cursor = page[1]
    local entries = page[2]
    for i = 1, #entries, 2 do
        bump(stageOf(entries[i]), topicOf(entries[i + 1]), 1)
        jobs = jobs + 1
    end
until cursor == '0'
saveCounts(counts)
return jobs
