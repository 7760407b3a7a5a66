-- Hands pumped jobs of one pull topic to its ready list; a job cancelled meanwhile is skipped.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] ready LIST of the topic in that bucket
-- KEYS[3] owner STRING of the bucket: the newest fencing token
-- KEYS[4] stage counters HASH of the bucket
-- ARGV[1] the caller's fencing token ('' = not fenced)
-- ARGV[2..] job ids
-- Returns the number of jobs made ready.
local inflight = KEYS[1]
local ready = KEYS[2]
local owner = KEYS[3]
local token = ARGV[1]
local counts = KEYS[4]

--#include counters
--#include parts
--#include ready

local topic = topicOfReady(ready)

--#include fence_check

local moving = {}
if #ARGV == 2 then
    -- one job (a steady trickle's usual hand-over): its ZREM tells whether it was still in flight
    if redis.call('ZREM', inflight, ARGV[2]) == 1 then
        moving[1] = ARGV[2]
    end
else
    -- more: which ids are still in flight, in one ZMSCORE per part, then ZREM for them in parts rather than one call
    -- per job: each call from Lua has a cost of its own
    local seen = {}
    for from = 2, #ARGV, PART do
        local part = partAt(ARGV, from)
        local flying = redis.call('ZMSCORE', inflight, unpack(part))
        for i, id in ipairs(part) do
            if flying[i] and not seen[id] then
                seen[id] = true
                moving[#moving + 1] = id
            end
        end
    end
    callInParts('ZREM', inflight, moving)
end
callInParts('RPUSH', ready, moving)
bump('f', topic, -#moving)
bump('r', topic, #moving)
saveCounts(counts)
return #moving
