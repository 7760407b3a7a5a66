-- A puller gives a reserved job back: due again at ARGV[2], its reservation counted as a try. A job whose
-- reservations reached its tries (or whose ttl ran out) is left in flight for the caller to bury.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] stage counters HASH of the bucket
-- ARGV[1] job id
-- ARGV[2] new due time, ms
-- ARGV[3] now, ms
-- ARGV[4] tries of a job that names none
-- Returns { 1 } released, { 0 } not in Redis, { -1 } not reserved, { 2, record, reservations } spent.
local dueIndex = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local counts = KEYS[5]
local id = ARGV[1]
local due = ARGV[2]
local now = tonumber(ARGV[3])
local defaultTries = tonumber(ARGV[4])

--#include record
--#include counters
--#include waiting

local record = redis.call('HGET', pool, id)
if not record then
    return { 0 }
end
local count = redis.call('HGET', reserved, id)
if not count or not redis.call('ZSCORE', inflight, id) then
    return { -1 }
end
local reservations = tonumber(count)
local dueBefore, ttl, tries = timesOf(record)
if tries <= 0 then
    tries = defaultTries
end
if reservations >= tries or (ttl > 0 and now >= dueBefore + ttl) then
    return { 2, record, reservations }
end
redis.call('ZREM', inflight, id)
wait(dueIndex, id, due)
local topic = topicOf(record)
bump('f', topic, -1)
bump('w', topic, 1)
saveCounts(counts)
return { 1 }
