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

-- per-topic stage counters of the bucket (store package-info): changes add up here, one HINCRBY per field at the end
local tally = {}
local function bump(stage, topic, delta)
    local field = stage .. ':' .. topic
    tally[field] = (tally[field] or 0) + delta
end
local function saveCounts()
    for field, delta in pairs(tally) do
        if delta ~= 0 and redis.call('HINCRBY', counts, field, delta) == 0 then
            redis.call('HDEL', counts, field)
        end
    end
end

-- a caller whose ownership term is older than the bucket's newest claim is refused: a paused or cut-off node
-- must not hand over jobs of a bucket another node owns now (tokens are equal-width digit strings)
if token ~= '' then
    local newest = redis.call('GET', owner)
    if newest and newest > token then
        return redis.error_reply('FENCED a newer ownership term holds this bucket')
    end
end

local moved = 0
for i = 2, #ARGV do
    local id = ARGV[i]
    if redis.call('ZREM', inflight, id) == 1 then
        redis.call('RPUSH', ready, id)
        moved = moved + 1
        bump('f', topic, -1)
        bump('r', topic, 1)
    end
end
saveCounts()
return moved
