-- Moves up to `limit` due jobs of one bucket into its in-flight set and returns them with their records.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket (score = deadline for handing the job over)
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] owner STRING of the bucket: the newest fencing token
-- KEYS[5] stage counters HASH of the bucket
-- ARGV[1] now, ms
-- ARGV[2] limit
-- ARGV[3] hand-over time allowed, ms: the deadline is Redis TIME plus this (one clock for every node)
-- ARGV[4] the caller's fencing token ('' = not fenced, standalone)
-- ARGV[5] (only where every topic goes to the pull queue) the bucket's ready LIST key up to the topic,
--         '<tag>:ready:': the jobs go straight to their topic's ready list instead of in-flight, which saves the
--         to_ready call per hand-over (the ready lists share the bucket's hash tag)
-- Returns { earliest remaining score or '-1', id1, record1, id2, record2, ... }
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]
local now = ARGV[1]
local limit = tonumber(ARGV[2])
local owner = KEYS[4]
local token = ARGV[4]
local counts = KEYS[5]
local readyPrefix = ARGV[5]

--#include record
--#include counters
--#include waiting
--#include clock

--#include fence_check
local deadline = nowMs() + tonumber(ARGV[3])

local out = { '-1' }
local taken = 0
-- topic -> ids, in due order, for the direct hand-over to the ready lists
local readying = {}
-- due order across the bucket: the slice holding the earliest due job gives up its jobs due no later than the next
-- slice's earliest (jobs due at one instant go out a whole slice at a time), until none is due or the limit is reached
while taken < limit do
    local firsts = redis.call('ZRANGEBYSCORE', due, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 2)
    if not firsts[1] then
        break
    end
    local s = firsts[1]
    local slice = sliceKey(due, s)
    local ids = redis.call('ZRANGEBYSCORE', slice, '-inf', firsts[4] or now, 'LIMIT', 0, limit - taken)
    callInParts('ZREM', slice, ids)
    refreshSlice(due, s)
    taken = taken + #ids
    -- one HMGET and one ZADD per part of the ids rather than two calls per job: each call from Lua costs on its own
    for from = 1, #ids, PART do
        local part = partAt(ids, from)
        local records = redis.call('HMGET', pool, unpack(part))
        local flying = {}
        for i, id in ipairs(part) do
            local record = records[i]
            -- a slice entry whose record is gone has no job to hand over: it is dropped
            if record then
                out[#out + 1] = id
                out[#out + 1] = record
                local topic = topicOf(record)
                bump('w', topic, -1)
                if readyPrefix then
                    local list = readying[topic]
                    if not list then
                        list = {}
                        readying[topic] = list
                    end
                    list[#list + 1] = id
                    bump('r', topic, 1)
                else
                    flying[#flying + 1] = deadline
                    flying[#flying + 1] = id
                    bump('f', topic, 1)
                end
            end
        end
        if #flying > 0 then
            redis.call('ZADD', inflight, unpack(flying))
        end
    end
end
for topic, ids in pairs(readying) do
    callInParts('RPUSH', readyPrefix .. topic, ids)
end
saveCounts(counts)
local head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
if head[2] then
    out[1] = head[2]
end
return out
