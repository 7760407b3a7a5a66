-- Returns in-flight jobs past their deadline to the delay bucket, due now, so they are delivered again. A spent job is
-- not returned: a pull job whose reservations reached its tries, a job whose record counts its tries used up (parked
-- for its burial by park.lua), or any job whose ttl ran out. It stays in flight until ARGV[3] ms and is handed to the
-- caller to be buried (journaled Dead, then forgotten); a crash or a failed step before that finds it again, never as
-- due. Also trims tombstones older than ARGV[4] ms while no restore runs.
-- KEYS[1] in-flight ZSET of the bucket
-- KEYS[2] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] restore marker of the bucket
-- KEYS[6] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- KEYS[7] owner STRING of the bucket: the newest fencing token
-- KEYS[8] stage counters HASH of the bucket
-- KEYS[9] the bucket's single delay ZSET (the layout without due slices, see Keys): jobs a node writing that layout
--         adds there move into the slices here, up to ARGV[1] a sweep
-- ARGV[1] limit
-- ARGV[2] tries of a job that names none
-- ARGV[3] how long spent jobs stay parked in flight for their burial, ms
-- ARGV[4] tombstone retention, ms
-- ARGV[5] the caller's fencing token ('' = not fenced)
-- Returns { {returned ids}, {spent id1, record1, tries used1, ...} } (tries used: reservations, or the record's
-- attempts when more).
local inflight = KEYS[1]
local due = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local restoring = KEYS[5]
local ended = KEYS[6]
local owner = KEYS[7]
local token = ARGV[5]
local counts = KEYS[8]

--#include record
--#include counters
--#include waiting
--#include clock

--#include fence_check
-- deadlines are compared with Redis TIME, the clock they were set by
local now = nowMs()
local limit = tonumber(ARGV[1])
local defaultTries = tonumber(ARGV[2])
local park = now + tonumber(ARGV[3])
local retention = tonumber(ARGV[4])

-- the tries a spent job used, or nil while it has tries left: a pull job counts its reservations, a broker job the
-- failed sends its record carries
local function spentTries(record, reservations)
    local due, ttl, tries, attempts = timesOf(record)
    local used = math.max(reservations, attempts)
    if tries <= 0 then
        tries = defaultTries
    end
    if (ttl > 0 and now >= due + ttl) or (used > 0 and used >= tries) then
        return used
    end
    return nil
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
        local used = spentTries(record, count and tonumber(count) or 0)
        if used then
            redis.call('ZADD', inflight, park, id)
            buried[#buried + 1] = id
            buried[#buried + 1] = record
            buried[#buried + 1] = used
        else
            redis.call('ZREM', inflight, id)
            wait(due, id, now)
            back[#back + 1] = id
            local topic = topicOf(record)
            bump('f', topic, -1)
            bump('w', topic, 1)
        end
    end
end
saveCounts(counts)
sliceLegacy(KEYS[9], due, limit)
if redis.call('EXISTS', restoring) == 0 then
    redis.call('ZREMRANGEBYSCORE', ended, '-inf', now - retention)
end
return { back, buried }
