-- Returns in-flight jobs past their deadline to the delay bucket, due now, so they are delivered again.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] delay ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- ARGV[1] now, ms
-- ARGV[2] limit
-- Returns the ids returned.
local inflight = KEYS[1]
local delay = KEYS[2]
local pool = KEYS[3]
local now = ARGV[1]
local limit = tonumber(ARGV[2])

local back = {}
local ids = redis.call('ZRANGEBYSCORE', inflight, '-inf', now, 'LIMIT', 0, limit)
for _, id in ipairs(ids) do
    redis.call('ZREM', inflight, id)
    if redis.call('HEXISTS', pool, id) == 1 then
        redis.call('ZADD', delay, now, id)
        back[#back + 1] = id
    end
end
return back
