-- Drops jobs from Redis after they were delivered (ack) or buried in the journal (dead): wherever they are.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] restore marker of the bucket: while it exists, every end leaves a tombstone
-- KEYS[6] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- KEYS[7] stage counters HASH of the bucket
-- ARGV    job ids
-- Returns the number of jobs that were still in the pool.
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local restoring = redis.call('EXISTS', KEYS[5]) == 1
local ended = KEYS[6]
local counts = KEYS[7]

--#include record
--#include counters
--#include waiting
--#include drop

-- one HMGET and one ZMSCORE for all ids, then one ZREM / HDEL each for all of them (dropAll): a call from Lua costs
-- ~1.5 us, and an ack of a broker batch drops hundreds of jobs
local records = {}
local flying = {}
for from = 1, #ARGV, 1000 do
    local part = { unpack(ARGV, from, math.min(from + 999, #ARGV)) }
    local r = redis.call('HMGET', pool, unpack(part))
    local f = redis.call('ZMSCORE', inflight, unpack(part))
    for i = 1, #part do
        records[from + i - 1] = r[i]
        flying[from + i - 1] = f[i]
    end
end
local seen = {}
for i, id in ipairs(ARGV) do
    if not seen[id] then
        seen[id] = true
        -- w waiting in a due slice, f in flight, r ready (in the pool, in neither set); in flight is never waiting
        local stage = 'f'
        if not flying[i] then
            stage = unwait(due, id) and 'w' or 'r'
        end
        if records[i] then
            bump(stage, topicOf(records[i]), -1)
        end
    end
end
local dropped = dropAll(ARGV, inflight, pool, reserved, ended, restoring)
saveCounts(counts)
return dropped
