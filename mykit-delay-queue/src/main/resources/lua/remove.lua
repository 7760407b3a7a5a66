-- Finishes or cancels a job: removes it from its bucket, in-flight set and pool. A ready job's list entry stays, to be
-- skipped by reserve.lua later, until such entries are half its list (lua/include/stale.lua). A cancel refuses a job
-- that is in flight (handed to a broker sender or reserved by a puller): it may be delivered already. A finish
-- acknowledges a pull job: one a puller reserved (in flight, or back in its bucket after the reservation ran out or was
-- released) or one in a pull topic's ready list. It refuses a job in flight that no puller reserved (a broker sender
-- has it: the broker delivers it) and a due job waiting in its bucket that no puller ever had (its hand-over, maybe to
-- a broker, is still to come).
-- KEYS[1..8] the keys of the scripts that end jobs (lua/include/ending.lua)
-- ARGV[1] job id
-- ARGV[2] latest delay score allowed (finish refuses a job that is not due yet)
-- ARGV[3] 'cancel' or 'finish'
-- ARGV[4] the bucket's ready LIST key up to the topic, '<tag>:ready:' (the lists share the bucket's hash tag)
-- Returns 1 removed, 0 not in Redis, -1 refused because not due, -2 refused because in flight (a cancel: any; a
-- finish: with no reservation), -3 a finish refused because the job is due and was never reserved.
--#include ending
--#include clock
--#include stale
local id = ARGV[1]
local latest = tonumber(ARGV[2])
local cancel = ARGV[3] == 'cancel'
local readyPrefix = ARGV[4]

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
local stage = stageFrom(score, flying)
local topic = topicOf(record)
bump(stage, topic, -1)
saveCounts(counts)
unwait(due, id)
redis.call('ZREM', inflight, id)
redis.call('HDEL', pool, id)
redis.call('HDEL', reserved, id)
if restoring or not cancel then
    local at = nowMs()
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
