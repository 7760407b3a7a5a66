-- Hands pumped jobs of one pull topic to its ready list; a job cancelled meanwhile is skipped.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] ready LIST of the topic in that bucket
-- ARGV    job ids
-- Returns the number of jobs made ready.
local inflight = KEYS[1]
local ready = KEYS[2]

local moved = 0
for _, id in ipairs(ARGV) do
    if redis.call('ZREM', inflight, id) == 1 then
        redis.call('RPUSH', ready, id)
        moved = moved + 1
    end
end
return moved
