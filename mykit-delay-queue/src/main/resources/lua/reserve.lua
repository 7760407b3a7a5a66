-- Reserves up to ARGV[2] live jobs of a ready list for a puller until the deadline, counting each reservation.
-- KEYS[1] ready LIST of the topic in one bucket
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] stage counters HASH of the bucket
-- ARGV[1] ttr, ms: the deadline is Redis TIME plus this, the clock every node's sweeper compares with
-- ARGV[2] most jobs to reserve (>= 1)
-- Returns { id1, record1, reservations1, id2, record2, reservations2, ..., left }: the jobs reserved (none when the list
-- holds no live job), then the list's length after them, so a puller knows whether to look here again.
local ready = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local counts = KEYS[5]
local wanted = tonumber(ARGV[2])

--#include record
--#include counters
--#include stale
--#include clock
--#include ready

local deadline = nowMs() + tonumber(ARGV[1])
local topic = topicOfReady(ready)
local skipped = 0

local out = {}
local live = 0
while live < wanted do
    -- the ids a whole pass needs in one LPOP and one HMGET each for records and reservation counts, written back with
    -- one HSET: each call from Lua has a cost of its own
    local ids = redis.call('LPOP', ready, math.min(wanted - live, PART))
    if not ids then
        break
    end
    local records = redis.call('HMGET', pool, unpack(ids))
    local taking = {}
    local liveIds = {}
    local liveRecords = {}
    for i, id in ipairs(ids) do
        -- entries of finished or cancelled jobs stay in the list until popped; skip them here
        if records[i] then
            liveIds[#liveIds + 1] = id
            liveRecords[#liveRecords + 1] = records[i]
        else
            skipped = skipped + 1
        end
    end
    if #liveIds > 0 then
        -- one live job (a single pull) takes one HINCRBY; more read their counts with one HMGET and write one HSET
        local before = #liveIds > 1 and redis.call('HMGET', reserved, unpack(liveIds))
        -- an id popped twice in one pass counts twice, as two HINCRBYs would
        local counted = {}
        for i, id in ipairs(liveIds) do
            local n
            if before then
                n = (counted[id] or tonumber(before[i]) or 0) + 1
                counted[id] = n
            else
                n = redis.call('HINCRBY', reserved, id, 1)
            end
            taking[#taking + 1] = deadline
            taking[#taking + 1] = id
            out[#out + 1] = id
            out[#out + 1] = liveRecords[i]
            out[#out + 1] = n
            local jobTopic = topicOf(liveRecords[i])
            bump('r', jobTopic, -1)
            bump('f', jobTopic, 1)
        end
        live = live + #liveIds
        if before then
            local written = {}
            for id, n in pairs(counted) do
                written[#written + 1] = id
                written[#written + 1] = n
            end
            redis.call('HSET', reserved, unpack(written))
        end
        redis.call('ZADD', inflight, unpack(taking))
    end
end
saveCounts(counts)
if skipped > 0 then
    staleEntries(counts, pool, ready, topic, -skipped)
end
out[#out + 1] = redis.call('LLEN', ready)
return out
