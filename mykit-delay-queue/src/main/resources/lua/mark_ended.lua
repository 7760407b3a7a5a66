-- Leaves a tombstone for a job that ended while Redis did not hold it (a finish whose first reply was lost, a
-- cancel of a job Redis lost), if a restore is running.
-- KEYS[1] restore marker of the bucket
-- KEYS[2] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- ARGV[1] job id
-- Returns 1 when a tombstone was written.
local restoring = KEYS[1]
local ended = KEYS[2]
local id = ARGV[1]

if redis.call('EXISTS', restoring) == 0 then
    return 0
end
local t = redis.call('TIME')
redis.call('ZADD', ended, t[1] * 1000 + math.floor(t[2] / 1000), id)
return 1
