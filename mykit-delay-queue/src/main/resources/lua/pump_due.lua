-- Moves up to `limit` due jobs of one bucket into its in-flight set and returns them with their records.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket (score = deadline for handing the job over)
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] owner STRING of the bucket: the newest fencing token
-- KEYS[5] stage counters HASH of the bucket
-- KEYS[6] pull reservation counts HASH of the bucket (only read with claims, ARGV[6])
-- ARGV[1] now, ms
-- ARGV[2] limit
-- ARGV[3] hand-over time allowed, ms: the deadline is Redis TIME plus this (one clock for every node)
-- ARGV[4] the caller's fencing token ('' = not fenced, standalone)
-- ARGV[5] (only where every topic goes to the pull queue) the bucket's ready LIST key up to the topic,
--         '<tag>:ready:': the jobs go straight to their topic's ready list instead of in-flight, which saves the
--         to_ready call per hand-over (the ready lists share the bucket's hash tag)
-- ARGV[6] (with ARGV[5]) how many claims follow, each: most jobs, ttr ms, topic count, topics...: a claim is a
--         stream's free credit; a due job of one of its topics is reserved for it here, as reserve.lua would, instead
--         of going to the ready list first (one script call per job fewer, and no look)
-- Returns { earliest remaining score or '-1', R, R x (id, record, reservations, claim number, due), id, record, due,
-- ... }: the jobs reserved for claims first, then the others; due is the time each was due at (its score), which a
-- release or a retry may have moved past the one its record says
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
local clockNow = nowMs()
local deadline = clockNow + tonumber(ARGV[3])

-- topic -> the claims that may take its jobs, in order; claim number -> { left, deadline }
local claimsOf = {}
local claims = {}
if readyPrefix and ARGV[6] then
    local at = 7
    for c = 1, tonumber(ARGV[6]) do
        local claim = { left = tonumber(ARGV[at]), deadline = clockNow + tonumber(ARGV[at + 1]) }
        claims[c] = claim
        local topicCount = tonumber(ARGV[at + 2])
        for t = 1, topicCount do
            local topic = ARGV[at + 2 + t]
            local list = claimsOf[topic]
            if not list then
                list = {}
                claimsOf[topic] = list
            end
            list[#list + 1] = c
        end
        at = at + 3 + topicCount
    end
end
local reserved = KEYS[6]

-- the first claim of the topic with room left, or nil
local function claimFor(topic)
    local list = claimsOf[topic]
    if not list then
        return nil
    end
    for _, c in ipairs(list) do
        if claims[c].left > 0 then
            return c
        end
    end
    return nil
end

local direct = {}
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
    local entries =
        redis.call('ZRANGEBYSCORE', slice, '-inf', firsts[4] or now, 'WITHSCORES', 'LIMIT', 0, limit - taken)
    local ids = {}
    local dueOf = {}
    for i = 1, #entries, 2 do
        ids[#ids + 1] = entries[i]
        dueOf[entries[i]] = entries[i + 1]
    end
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
                local topic = topicOf(record)
                bump('w', topic, -1)
                local c = readyPrefix and claimFor(topic)
                if c then
                    -- reserved for the claim's stream: in flight until its ttr, the reservation counted
                    claims[c].left = claims[c].left - 1
                    local n = redis.call('HINCRBY', reserved, id, 1)
                    redis.call('ZADD', inflight, claims[c].deadline, id)
                    bump('f', topic, 1)
                    direct[#direct + 1] = id
                    direct[#direct + 1] = record
                    direct[#direct + 1] = n
                    direct[#direct + 1] = c
                    direct[#direct + 1] = dueOf[id]
                elseif readyPrefix then
                    out[#out + 1] = id
                    out[#out + 1] = record
                    out[#out + 1] = dueOf[id]
                    local list = readying[topic]
                    if not list then
                        list = {}
                        readying[topic] = list
                    end
                    list[#list + 1] = id
                    bump('r', topic, 1)
                else
                    out[#out + 1] = id
                    out[#out + 1] = record
                    out[#out + 1] = dueOf[id]
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
local result = { head[2] or '-1', #direct / 5 }
for _, value in ipairs(direct) do
    result[#result + 1] = value
end
for i = 2, #out do
    result[#result + 1] = out[i]
end
return result
