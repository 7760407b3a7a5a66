-- Moves up to `limit` due jobs of one bucket into its in-flight set and returns them with their records.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket (score = deadline for handing the job over)
-- KEYS[3] job pool HASH of the bucket
-- ARGV[1] now, ms
-- ARGV[2] limit
-- KEYS[4] owner STRING of the bucket: the newest fencing token
-- ARGV[3] hand-over time allowed, ms: the deadline is Redis TIME plus this (one clock for every node)
-- ARGV[4] the caller's fencing token ('' = not fenced, standalone)
-- KEYS[5] stage counters HASH of the bucket
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

--#include fence
local refused = fenced(owner, token)
if refused then
    return refused
end
local clock = redis.call('TIME')
local redisNow = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local deadline = redisNow + tonumber(ARGV[3])

local out = { '-1' }
local taken = 0
-- topic -> ids, in due order, for the straight road to the ready lists
local readying = {}
-- due order across the bucket: the slice holding the earliest due job gives up its jobs due no later than the next
-- slice's earliest (jobs due at one instant go out a whole slice at a time), until none is due or the limit is reached
while taken < limit do
    local firsts = redis.call('ZRANGEBYSCORE', due, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 2)
    if not firsts[1] then
        break
    end
    local s = firsts[1]
    local slice = due .. ':' .. s
    local ids = redis.call('ZRANGEBYSCORE', slice, '-inf', firsts[4] or now, 'LIMIT', 0, limit - taken)
    -- unpack takes a few thousand values at most
    for from = 1, #ids, 1000 do
        redis.call('ZREM', slice, unpack(ids, from, math.min(from + 999, #ids)))
    end
    refreshSlice(due, s)
    taken = taken + #ids
    -- a thousand ids per HMGET and per ZADD rather than two calls per job: a call from Lua costs ~1.5 us on its own
    for from = 1, #ids, 1000 do
        local part = { unpack(ids, from, math.min(from + 999, #ids)) }
        local records = redis.call('HMGET', pool, unpack(part))
        local flying = {}
        for i, id in ipairs(part) do
            local record = records[i]
            -- an id without a record was cancelled half-way by an older version; drop it
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
    for from = 1, #ids, 1000 do
        redis.call('RPUSH', readyPrefix .. topic, unpack(ids, from, math.min(from + 999, #ids)))
    end
end
saveCounts(counts)
local head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
if head[2] then
    out[1] = head[2]
end
return out
