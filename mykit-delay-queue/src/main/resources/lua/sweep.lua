-- Returns in-flight jobs past their deadline to the delay bucket, due now, so they are delivered again. A pull job
-- whose reservations reached its tries, or any job whose ttl ran out, is not returned: it stays in flight until
-- ARGV[4] and is handed to the caller to be buried (journaled Dead, then forgotten); a crash before that finds it
-- again. Also trims tombstones older than ARGV[5] ms while no restore runs.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] delay ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] restore marker of the bucket
-- KEYS[6] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- ARGV[1] now, ms
-- ARGV[2] limit
-- ARGV[3] tries of a job that names none
-- ARGV[4] deadline to park spent jobs at until they are buried, ms
-- ARGV[5] tombstone retention, ms
-- Returns { {returned ids}, {spent id1, record1, reservations1, ...} }.
local inflight = KEYS[1]
local delay = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local restoring = KEYS[5]
local ended = KEYS[6]
local now = ARGV[1]
local limit = tonumber(ARGV[2])
local defaultTries = tonumber(ARGV[3])
local park = ARGV[4]
local retention = tonumber(ARGV[5])

local function spent(record, reservations)
    local job = cjson.decode(record)
    local ttl = tonumber(job.ttl) or 0
    if ttl > 0 then
        local due = (tonumber(job.createTime) or 0) + (tonumber(job.delay) or 0) + (tonumber(job.priority) or 0)
        if tonumber(now) >= due + ttl then
            return true
        end
    end
    local tries = tonumber(job.tries) or 0
    if tries <= 0 then
        tries = defaultTries
    end
    return reservations > 0 and reservations >= tries
end

local back = {}
local buried = {}
local ids = redis.call('ZRANGEBYSCORE', inflight, '-inf', now, 'LIMIT', 0, limit)
for _, id in ipairs(ids) do
    local record = redis.call('HGET', pool, id)
    if not record then
        redis.call('ZREM', inflight, id)
        redis.call('HDEL', reserved, id)
    else
        local count = redis.call('HGET', reserved, id)
        local reservations = count and tonumber(count) or 0
        if spent(record, reservations) then
            redis.call('ZADD', inflight, park, id)
            buried[#buried + 1] = id
            buried[#buried + 1] = record
            buried[#buried + 1] = reservations
        else
            redis.call('ZREM', inflight, id)
            redis.call('ZADD', delay, now, id)
            back[#back + 1] = id
        end
    end
end
if redis.call('EXISTS', restoring) == 0 then
    local t = redis.call('TIME')
    redis.call('ZREMRANGEBYSCORE', ended, '-inf', t[1] * 1000 + math.floor(t[2] / 1000) - retention)
end
return { back, buried }
