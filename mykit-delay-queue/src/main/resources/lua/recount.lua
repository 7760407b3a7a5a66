-- Counts one bucket's jobs per topic and stage afresh, whenever the counters are missing (a store written without
-- them, a Redis that lost data) or an operator asks. Reads the whole bucket (HSCAN of the pool), so it runs rarely,
-- never per request.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] stage counters HASH of the bucket
-- Returns the number of jobs counted.
--#include record
--#include counters
--#include stage
local counts = KEYS[4]

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
