-- Gives back a job reserved for a long-poll whose client went away before it was answered: first in its ready list
-- again, and the reservation not counted as a try. Only the reservation made for that poll is undone.
-- KEYS[1] ready LIST of the topic in the job's bucket
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] stage counters HASH of the bucket (store package-info): the job goes from in flight back to ready
-- ARGV[1] job id
-- ARGV[2] the reservation count the poll's reservation returned
-- Returns 1 given back, 0 not (finished, swept or reserved again meanwhile).
--#include record
--#include counters

local ready = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local id = ARGV[1]
local count = ARGV[2]

if redis.call('HGET', reserved, id) ~= count or not redis.call('ZSCORE', inflight, id)
        or redis.call('HEXISTS', pool, id) == 0 then
    return 0
end
redis.call('ZREM', inflight, id)
if tonumber(count) <= 1 then
    redis.call('HDEL', reserved, id)
else
    redis.call('HINCRBY', reserved, id, -1)
end
redis.call('LPUSH', ready, id)
local topic = topicOf(redis.call('HGET', pool, id))
bump('f', topic, -1)
bump('r', topic, 1)
saveCounts(KEYS[5])
return 1
