-- Adds jobs to one bucket unless the pool already holds them, so a repeated push or restore is a no-op.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] job pool HASH of the bucket
-- KEYS[3] stage counters HASH of the bucket
-- KEYS[4] (restores only) tombstone ZSET of the bucket: a job that ended while the restore ran is not added
-- KEYS[5] (restores only) finish marks ZSET of the bucket: a job finished whose Finish is not journaled is not added
-- ARGV    id1, score1, record1, id2, score2, record2, ...
-- Returns the ids added.
local due = KEYS[1]
local pool = KEYS[2]
local counts = KEYS[3]
local ended = KEYS[4]
local finished = KEYS[5]

--#include record
--#include counters
--#include waiting

local added = {}
for i = 1, #ARGV, 3 do
    local id, score, record = ARGV[i], ARGV[i + 1], ARGV[i + 2]
    if not (ended and redis.call('ZSCORE', ended, id)) and not (finished and redis.call('ZSCORE', finished, id))
            and redis.call('HSETNX', pool, id, record) == 1 then
        wait(due, id, score)
        added[#added + 1] = id
        bump('w', topicOf(record), 1)
    end
end
saveCounts(counts)
return added
