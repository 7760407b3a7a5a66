-- Leaves a tombstone for a job that ended while Redis did not hold it (a finish whose first reply was lost, a
-- cancel of a job Redis lost), if a restore is running.
-- KEYS[1] restore marker of the bucket
-- KEYS[2] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- ARGV[1] job id
-- Returns 1 when a tombstone was written.
local restoring = KEYS[1]
local ended = KEYS[2]
local id = ARGV[1]

--#include clock

if redis.call('EXISTS', restoring) == 0 then
    return 0
end
redis.call('ZADD', ended, nowMs(), id)
return 1
