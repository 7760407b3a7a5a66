-- Reserves up to ARGV[2] live jobs of a ready list for a puller until the deadline, counting each reservation.
-- KEYS[1] ready LIST of the topic in one bucket
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] stage counters HASH of the bucket
-- ARGV[1] ttr, ms: the deadline is Redis TIME plus this, the clock every node's sweeper compares with
-- ARGV[2] most jobs to reserve (>= 1)
-- Returns { id1, record1, reservations1, id2, record2, reservations2, ... }, empty when the list holds no live job.
local ready = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local counts = KEYS[5]
local clock = redis.call('TIME')
local redisNow = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local deadline = redisNow + tonumber(ARGV[1])
local wanted = tonumber(ARGV[2])

--#include record
--#include counters

local out = {}
local live = 0
while live < wanted do
    -- the ids a whole pass needs in one LPOP and one HMGET: a call from Lua costs ~1.5 us on its own
    local ids = redis.call('LPOP', ready, math.min(wanted - live, 1000))
    if not ids then
        break
    end
    local records = redis.call('HMGET', pool, unpack(ids))
    local taking = {}
    for i, id in ipairs(ids) do
        -- entries of finished or cancelled jobs stay in the list until popped; skip them here
        local record = records[i]
        if record then
            taking[#taking + 1] = deadline
            taking[#taking + 1] = id
            out[#out + 1] = id
            out[#out + 1] = record
            out[#out + 1] = redis.call('HINCRBY', reserved, id, 1)
            local topic = topicOf(record)
            bump('r', topic, -1)
            bump('f', topic, 1)
            live = live + 1
        end
    end
    if #taking > 0 then
        redis.call('ZADD', inflight, unpack(taking))
    end
end
saveCounts(counts)
return out
