-- Waiting jobs (store package-info): each bucket spreads them over SLICES small ZSETs '<due>:<slice>' (id -> due
-- time), the slice a pure function of the id, so that each stays small enough for Redis' compact listpack encoding;
-- the index ZSET '<due>' maps each non-empty slice to its earliest due time. LuaScript puts this where a script says
-- "--#include waiting"; DelaySlices.of is the same function in Java.
--#include parts
local SLICES = 1024

-- the key of slice s of the bucket whose index is due (Keys.dueSlice)
local function sliceKey(due, s)
    return due .. ':' .. s
end

-- a script asks again for the id it just asked for (stage check, then removal): that one is not hashed twice
local lastId, lastSlice = nil, nil
local function sliceOf(id)
    if id == lastId then
        return lastSlice
    end
    local h = 0
    -- one call for all bytes costs half of one call per byte (ids are at most 128 characters)
    local bytes = { string.byte(id, 1, -1) }
    for i = 1, #bytes do
        h = (h * 31 + bytes[i]) % 2147483647
    end
    lastId, lastSlice = id, h % SLICES
    return lastSlice
end

-- the id's due time while it waits, else false
local function waitingScore(due, id)
    return redis.call('ZSCORE', sliceKey(due, sliceOf(id)), id)
end

-- the index entry of slice s follows its earliest member, or goes with the slice's last one
local function refreshSlice(due, s)
    local head = redis.call('ZRANGE', sliceKey(due, s), 0, 0, 'WITHSCORES')
    if head[2] then
        redis.call('ZADD', due, head[2], s)
    else
        redis.call('ZREM', due, s)
    end
end

-- makes the id wait until score (a job waiting already takes the new score)
local function wait(due, id, score)
    local s = sliceOf(id)
    if redis.call('ZADD', sliceKey(due, s), score, id) == 1 then
        -- a new member can only lower the slice's earliest time
        redis.call('ZADD', due, 'LT', score, s)
    else
        refreshSlice(due, s)
    end
end

-- true when the id was waiting (and now is not)
local function unwait(due, id)
    local s = sliceOf(id)
    if redis.call('ZREM', sliceKey(due, s), id) == 1 then
        refreshSlice(due, s)
        return true
    end
    return false
end

-- moves up to n jobs, earliest first, from a bucket's single delay ZSET (the layout without due slices, see Keys) into
-- the slices, each at the due time it had; returns how many are left there
local function sliceLegacy(legacy, due, n)
    local entries = redis.call('ZRANGE', legacy, 0, n - 1, 'WITHSCORES')
    local ids = {}
    for i = 1, #entries, 2 do
        wait(due, entries[i], entries[i + 1])
        ids[#ids + 1] = entries[i]
    end
    callInParts('ZREM', legacy, ids)
    return redis.call('ZCARD', legacy)
end
