-- A restore of this bucket ended: lowers the marker; the last one drops the marker and the tombstones.
-- KEYS[1] restore marker of the bucket (counter)
-- KEYS[2] tombstone ZSET of the bucket
-- Returns the restores still running.
local restoring = KEYS[1]
local ended = KEYS[2]

local left = redis.call('DECR', restoring)
if left <= 0 then
    redis.call('DEL', restoring, ended)
end
return left
