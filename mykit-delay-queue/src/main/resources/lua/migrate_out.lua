-- Removes jobs that moved to another bucket (a bucket-count change) from this one, after migrate_in.lua wrote them
-- there. Their ready-list entries stay until prune_ready.lua drops them (reserve.lua skips them meanwhile). No
-- tombstone: no restore runs while the buckets are migrated.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] stage counters HASH of the bucket
-- ARGV    job ids
-- Returns the number of jobs that were still in the pool.
--#include record
--#include counters
--#include stage
local reserved = KEYS[4]
local counts = KEYS[5]

local removed = 0
for _, id in ipairs(ARGV) do
    local record = redis.call('HGET', pool, id)
    if record then
        bump(stageOf(id), topicOf(record), -1)
    end
    unwait(due, id)
    redis.call('ZREM', inflight, id)
    redis.call('HDEL', reserved, id)
    removed = removed + redis.call('HDEL', pool, id)
end
saveCounts(counts)
return removed
