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
saveCounts(counts)
return moved
