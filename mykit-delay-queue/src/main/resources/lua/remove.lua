-- Removes a job from its bucket, in-flight set and pool (finish or cancel). A stale ready-list
-- entry is skipped by reserve.lua later, which keeps this script inside one bucket's keys.
-- KEYS[1] delay ZSET of the bucket
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- ARGV[1] job id
-- ARGV[2] latest delay score allowed (finish refuses a job that is not due yet)
-- Returns 1 removed, 0 not in Redis, -1 refused because not due.
local delay = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local id = ARGV[1]
local latest = tonumber(ARGV[2])

if redis.call('HEXISTS', pool, id) == 0 then
    return 0
end
local score = redis.call('ZSCORE', delay, id)
if score and tonumber(score) > latest then
    return -1
end
redis.call('ZREM', delay, id)
redis.call('ZREM', inflight, id)
redis.call('HDEL', pool, id)
return 1
