-- Puts jobs whose send failed back in their bucket at a later score, with their updated record (attempts+1).
-- Only jobs still in flight move: one cancelled or already swept meanwhile is left alone.
-- KEYS[1] delay ZSET of the bucket
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] owner STRING of the bucket: the newest fencing token
-- KEYS[5] stage counters HASH of the bucket
-- ARGV[1] the caller's fencing token ('' = not fenced)
-- ARGV[2..] id1, score1, record1, id2, score2, record2, ...
-- Returns the number of jobs put back.
local delay = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local owner = KEYS[4]
local token = ARGV[1]
local counts = KEYS[5]

-- the record's top-level topic: JSON strings escape every quote, so only that field reads '"topic":"'
local function topicOf(record)
    return string.match(record, '"topic":"([^"]*)"') or '?'
end

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
for i = 2, #ARGV, 3 do
    local id, score, record = ARGV[i], ARGV[i + 1], ARGV[i + 2]
    if redis.call('ZREM', inflight, id) == 1 then
        local topic = topicOf(record)
        -- an in-flight entry whose record was gone was not counted
        if redis.call('HSET', pool, id, record) == 0 then
            bump('f', topic, -1)
        end
        bump('w', topic, 1)
        redis.call('ZADD', delay, score, id)
        moved = moved + 1
    end
end
saveCounts()
return moved
