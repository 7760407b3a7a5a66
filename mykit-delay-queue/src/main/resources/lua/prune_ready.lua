-- Drops the entries of a ready list whose job the bucket's pool no longer holds (moved to another bucket, finished or
-- cancelled), keeping the order of the rest: a job that later moves back must not find an old entry of itself here.
-- KEYS[1] ready LIST of one topic in the bucket
-- KEYS[2] job pool HASH of the bucket
-- Returns the number of entries dropped.
local ready = KEYS[1]
local pool = KEYS[2]

--#include parts

local ids = redis.call('LRANGE', ready, 0, -1)
local kept = {}
for _, id in ipairs(ids) do
    if redis.call('HEXISTS', pool, id) == 1 then
        kept[#kept + 1] = id
    end
end
if #kept == #ids then
    return 0
end
redis.call('DEL', ready)
callInParts('RPUSH', ready, kept)
return #ids - #kept
