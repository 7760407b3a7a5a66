-- Finishes many jobs of one bucket at once (POST /finish/batch): remove.lua's 'finish' for each id (pull jobs only:
-- one a puller reserved, or one in a ready list), with the reads and removals that need no per-job answer made as one
-- command for all (a call from Lua costs ~1.5 us on its own).
-- KEYS[1..8] as remove.lua: due index, in-flight ZSET, pool HASH, reservation counts HASH, restore marker,
-- tombstone ZSET, stage counters HASH, finish marks ZSET
-- ARGV[1] latest delay score allowed (a job not due yet is refused)
-- ARGV[2] the bucket's ready LIST key up to the topic, '<tag>:ready:' (the lists share the bucket's hash tag)
-- ARGV[3..] job ids, each once, at most a few thousand
-- Returns one code per id, as remove.lua: 1 removed, 0 not in Redis, -1 refused because not due, -2 refused because
-- in flight with no puller's reservation (a broker sender has it), -3 refused because due and never reserved.
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local reserved = KEYS[4]
local restoring = redis.call('EXISTS', KEYS[5]) == 1
local ended = KEYS[6]
local counts = KEYS[7]
local finished = KEYS[8]
local latest = tonumber(ARGV[1])
local readyPrefix = ARGV[2]

--#include record
--#include counters
--#include waiting
--#include drop
--#include stale

local ids = { unpack(ARGV, 3) }
local records = redis.call('HMGET', pool, unpack(ids))
local flying = redis.call('ZMSCORE', inflight, unpack(ids))
local reservations = redis.call('HMGET', reserved, unpack(ids))
local out = {}
local gone = {}
local seen = {}
-- topic -> ready jobs ended: their list entries stay behind
local leftInReady = {}
for i, id in ipairs(ids) do
    local record = records[i]
    out[i] = 0
    -- an id given twice is finished once (its second code is 0, as a second remove.lua call would answer)
    if record and not seen[id] then
        seen[id] = true
        -- w waiting in a due slice, f in flight, r ready (in the pool, in neither set); in flight is never waiting
        local stage = 'f'
        local score = false
        if not flying[i] then
            score = waitingScore(due, id)
            stage = score and 'w' or 'r'
        end
        if score and tonumber(score) > latest then
            out[i] = -1
        elseif stage ~= 'r' and not reservations[i] then
            out[i] = stage == 'f' and -2 or -3
        else
            if score then
                unwait(due, id)
            end
            local topic = topicOf(record)
            bump(stage, topic, -1)
            if stage == 'r' then
                leftInReady[topic] = (leftInReady[topic] or 0) + 1
            end
            gone[#gone + 1] = id
            out[i] = 1
        end
    end
end
dropAll(gone, inflight, pool, reserved, ended, restoring)
-- answered before the state writer journals them: until then a restore must not bring them back
if #gone > 0 then
    local t = redis.call('TIME')
    local at = t[1] * 1000 + math.floor(t[2] / 1000)
    for from = 1, #gone, 1000 do
        local marks = {}
        for k = from, math.min(from + 999, #gone) do
            marks[#marks + 1] = at
            marks[#marks + 1] = gone[k]
        end
        redis.call('ZADD', finished, unpack(marks))
    end
end
saveCounts(counts)
for topic, n in pairs(leftInReady) do
    staleEntries(counts, pool, readyPrefix .. topic, topic, n)
end
return out
