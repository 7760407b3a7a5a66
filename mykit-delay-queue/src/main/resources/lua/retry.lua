-- Puts jobs whose send failed back in their bucket at a later score, with their updated record (attempts+1).
-- Only jobs still in flight move: one cancelled or already swept meanwhile is left alone, and so is one parked for its
-- burial by another hand-over of it (park.lua: its record counts its tries used up).
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] owner STRING of the bucket: the newest fencing token
-- KEYS[5] stage counters HASH of the bucket
-- ARGV[1] the caller's fencing token ('' = not fenced)
-- ARGV[2..] id1, score1, record1, id2, score2, record2, ...
-- Returns the number of jobs put back.
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local owner = KEYS[4]
local token = ARGV[1]
local counts = KEYS[5]

--#include record
--#include counters
--#include waiting

--#include fence_check

local moved = 0
for i = 2, #ARGV, 3 do
    local id, score, record = ARGV[i], ARGV[i + 1], ARGV[i + 2]
    local current = redis.call('HGET', pool, id)
    if not (current and markedSpent(current)) and redis.call('ZREM', inflight, id) == 1 then
        local topic = topicOf(record)
        -- an in-flight entry whose record was gone was not counted
        if redis.call('HSET', pool, id, record) == 0 then
            bump('f', topic, -1)
        end
        bump('w', topic, 1)
        wait(due, id, score)
        moved = moved + 1
    end
end
saveCounts(counts)
return moved
