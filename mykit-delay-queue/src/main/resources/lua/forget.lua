-- Drops jobs from Redis after they were delivered (ack) or buried in the journal (dead): wherever they are.
-- KEYS[1] delay ZSET of the bucket
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- ARGV    job ids
-- Returns the number of jobs that were still in the pool.
local delay = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]

local dropped = 0
for _, id in ipairs(ARGV) do
    redis.call('ZREM', delay, id)
    redis.call('ZREM', inflight, id)
    dropped = dropped + redis.call('HDEL', pool, id)
end
return dropped
