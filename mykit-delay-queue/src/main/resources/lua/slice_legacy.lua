-- Moves up to ARGV[1] waiting jobs from the single delay ZSET that versions before the due slices kept into the due
-- slices (lua/include/waiting.lua), each at the due time it had; atomic, so a crash leaves every job in one of them.
-- KEYS[1] the bucket's old delay ZSET (id -> due time)
-- KEYS[2] due index ZSET of the bucket
-- ARGV[1] jobs to move
-- Returns the jobs still in the old ZSET.
local legacy = KEYS[1]
local due = KEYS[2]

--#include waiting

local entries = redis.call('ZRANGE', legacy, 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
local ids = {}
for i = 1, #entries, 2 do
    wait(due, entries[i], entries[i + 1])
    ids[#ids + 1] = entries[i]
end
for from = 1, #ids, 1000 do
    redis.call('ZREM', legacy, unpack(ids, from, math.min(from + 999, #ids)))
end
return redis.call('ZCARD', legacy)
