-- Removes jobs that moved to another bucket (a bucket-count change) from this one, after migrate_in.lua wrote them
-- there. Their ready-list entries stay until prune_ready.lua drops them (reserve.lua skips them meanwhile). No
-- tombstone: no restore runs while the buckets are migrated.
-- KEYS[1] job pool HASH of the bucket
-- KEYS[2] delay ZSET of the bucket
-- KEYS[3] in-flight ZSET of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] stage counters HASH of the bucket
-- ARGV    job ids
-- Returns the number of jobs that were still in the pool.
local pool = KEYS[1]
local delay = KEYS[2]
local inflight = KEYS[3]
local reserved = KEYS[4]
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

-- w waiting in the delay ZSET, f in flight, r ready (in the pool, in neither set)
local function stageOf(id)
    if redis.call('ZSCORE', delay, id) then
        return 'w'
    end
    if redis.call('ZSCORE', inflight, id) then
        return 'f'
    end
    return 'r'
end

local removed = 0
for _, id in ipairs(ARGV) do
    local record = redis.call('HGET', pool, id)
    if record then
        bump(stageOf(id), topicOf(record), -1)
    end
    redis.call('ZREM', delay, id)
    redis.call('ZREM', inflight, id)
    redis.call('HDEL', reserved, id)
    removed = removed + redis.call('HDEL', pool, id)
end
saveCounts()
return removed
