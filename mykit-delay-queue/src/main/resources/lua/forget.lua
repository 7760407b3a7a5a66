-- Drops jobs from Redis after they were delivered (ack) or buried in the journal (dead): wherever they are.
-- KEYS[1..8] the keys of the scripts that end jobs (lua/include/ending.lua); the finish marks are not touched
-- ARGV    job ids
-- Returns the number of jobs that were still in the pool.
--#include ending
--#include drop

-- one HMGET and one ZMSCORE per part of the ids, then one ZREM / HDEL per part for all of them (dropAll): each call
-- from Lua has a cost of its own, and an ack of a broker batch drops hundreds of jobs
local records = {}
local flying = {}
for from = 1, #ARGV, PART do
    local part = partAt(ARGV, from)
    local r = redis.call('HMGET', pool, unpack(part))
    local f = redis.call('ZMSCORE', inflight, unpack(part))
    for i = 1, #part do
        records[from + i - 1] = r[i]
        flying[from + i - 1] = f[i]
    end
end
local seen = {}
for i, id in ipairs(ARGV) do
    if not seen[id] then
        seen[id] = true
        -- a job in flight is not waiting: its slice is not read
        local stage = stageFrom(not flying[i] and unwait(due, id), flying[i])
        if records[i] then
            bump(stage, topicOf(records[i]), -1)
        end
    end
end
local dropped = dropAll(ARGV, inflight, pool, reserved, ended, restoring)
saveCounts(counts)
return dropped
