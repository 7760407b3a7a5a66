-- Finishes many jobs of one bucket at once (POST /finish/batch): remove.lua's 'finish' for each id (pull jobs only:
-- one a puller reserved, or one in a ready list), with the reads and removals that need no per-job answer made as one
-- command for all, since each call from Lua has a cost of its own.
-- KEYS[1..8] the keys of the scripts that end jobs (lua/include/ending.lua)
-- ARGV[1] latest delay score allowed (a job not due yet is refused)
-- ARGV[2] the bucket's ready LIST key up to the topic, '<tag>:ready:' (the lists share the bucket's hash tag)
-- ARGV[3..] job ids, each once, at most a few thousand
-- Returns one code per id, as remove.lua: 1 removed, 0 not in Redis, -1 refused because not due, -2 refused because
-- in flight with no puller's reservation (a broker sender has it), -3 refused because due and never reserved.
--#include ending
--#include drop
--#include stale
local latest = tonumber(ARGV[1])
local readyPrefix = ARGV[2]

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
        -- a job in flight is not waiting: its slice is not read
        local score = not flying[i] and waitingScore(due, id)
        local stage = stageFrom(score, flying[i])
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
    markAll(finished, nowMs(), gone)
end
saveCounts(counts)
for topic, n in pairs(leftInReady) do
    staleEntries(counts, pool, readyPrefix .. topic, topic, n)
end
return out
