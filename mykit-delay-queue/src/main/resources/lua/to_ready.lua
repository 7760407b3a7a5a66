-- Hands pumped jobs of one pull topic to its ready list; a job cancelled meanwhile is skipped.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] ready LIST of the topic in that bucket
-- KEYS[3] owner STRING of the bucket: the newest fencing token
-- ARGV[1] the caller's fencing token ('' = not fenced)
-- ARGV[2..] job ids
-- Returns the number of jobs made ready.
local inflight = KEYS[1]
local ready = KEYS[2]
local owner = KEYS[3]
local token = ARGV[1]

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
    end
end
return moved
