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
-- the list's key ends in ':ready:<topic>', and topics hold no ':'
local topic = string.match(ready, ':ready:([^:]*)$')

--#include counters

--#include fence
local refused = fenced(owner, token)
if refused then
    return refused
end

local moving = {}
if #ARGV == 2 then
    -- one job (a steady trickle's usual hand-over): its ZREM tells whether it was still in flight
    if redis.call('ZREM', inflight, ARGV[2]) == 1 then
        moving[1] = ARGV[2]
    end
else
    -- more: which ids are still in flight, in one ZMSCORE, then one ZREM for them (a call from Lua costs ~1.5 us)
    local seen = {}
    for from = 2, #ARGV, 1000 do
        local part = { unpack(ARGV, from, math.min(from + 999, #ARGV)) }
        local flying = redis.call('ZMSCORE', inflight, unpack(part))
        for i, id in ipairs(part) do
            if flying[i] and not seen[id] then
                seen[id] = true
                moving[#moving + 1] = id
            end
        end
    end
    for from = 1, #moving, 1000 do
        redis.call('ZREM', inflight, unpack(moving, from, math.min(from + 999, #moving)))
    end
end
for from = 1, #moving, 1000 do
    redis.call('RPUSH', ready, unpack(moving, from, math.min(from + 999, #moving)))
end
bump('f', topic, -#moving)
bump('r', topic, #moving)
saveCounts(counts)
return #moving
