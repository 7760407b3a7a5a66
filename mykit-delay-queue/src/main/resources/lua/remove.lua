-- Finishes or cancels a job: removes it from its bucket, in-flight set and pool. A ready job's list entry stays, to be
-- skipped by reserve.lua later, until such entries are half its list (lua/include/stale.lua). A cancel refuses a job
-- that is in flight (handed to a broker sender or reserved by a puller): it may be delivered already. A finish
-- acknowledges a pull job: one a puller reserved (in flight, or back in its bucket after the reservation ran out or was
-- released) or one in a pull topic's ready list. It refuses a job in flight that no puller reserved (a broker sender
-- has it: the broker delivers it) and a due job waiting in its bucket that no puller ever had (its hand-over, maybe to
-- a broker, is still to come).
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] restore marker of the bucket: while it exists, every end leaves a tombstone
-- KEYS[6] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- KEYS[7] stage counters HASH of the bucket
-- KEYS[8] finish marks ZSET of the bucket: a finish leaves one until its Finish is journaled
-- ARGV[1] job id
-- ARGV[2] latest delay score allowed (finish refuses a job that is not due yet)
-- ARGV[3] 'cancel' or 'finish'
-- ARGV[4] the bucket's ready LIST key up to the topic, '<tag>:ready:' (the lists share the bucket's hash tag)
-- Returns 1 removed, 0 not in Redis, -1 refused because not due, -2 refused because in flight (a cancel: any; a
-- finish: with no reservation), -3 a finish refused because the job is due and was never reserved.
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local restoring = redis.call('EXISTS', KEYS[5]) == 1
local ended = KEYS[6]
local counts = KEYS[7]
local finished = KEYS[8]
local id = ARGV[1]
local latest = tonumber(ARGV[2])
local cancel = ARGV[3] == 'cancel'
local readyPrefix = ARGV[4]

--#include record
--#include counters
--#include waiting
--#include stale

local record = redis.call('HGET', pool, id)
if not record then
    return 0
end
local flying = redis.call('ZSCORE', inflight, id)
if cancel and flying then
    return -2
end
local score = waitingScore(due, id)
if score and tonumber(score) > latest then
    return -1
end
if not cancel and (flying or score) and redis.call('HEXISTS', reserved, id) == 0 then
    return flying and -2 or -3
end
-- w waiting in a due slice, f in flight, r ready (in the pool, in neither set)
local stage = 'r'
if score then
    stage = 'w'
elseif flying then
    stage = 'f'
end
local topic = topicOf(record)
bump(stage, topic, -1)
saveCounts(counts)
unwait(due, id)
redis.call('ZREM', inflight, id)
redis.call('HDEL', pool, id)
redis.call('HDEL', reserved, id)
if restoring or not cancel then
    local t = redis.call('TIME')
    local at = t[1] * 1000 + math.floor(t[2] / 1000)
    if restoring then
        redis.call('ZADD', ended, at, id)
    end
    if not cancel then
        -- answered before the state writer journals it: until then a restore must not bring it back
        redis.call('ZADD', finished, at, id)
    end
end
if stage == 'r' and readyPrefix then
    staleEntries(counts, pool, readyPrefix .. topic, topic, 1)
end
return 1
