-- Samples the head of one bucket's waiting jobs for one topic, or for the topics of some patterns (a tenant's): the
-- earliest overdue and the earliest future due time among the first ARGV[2] waiting jobs on each side of now. Bounded
-- work per call, whatever the bucket holds and however many topics the patterns match.
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] job pool HASH of the bucket
-- ARGV[1] now, ms
-- ARGV[2] entries to look at on each side of now
-- ARGV[3..] topic patterns: '*' stands for any run of characters; a topic name (no '*' in one) matches itself
-- Returns { oldest overdue score or '', next due score or '', 1 or 0, 1 or 0 }: a side is known (1) when a job of the
-- topic was found there or the window held that whole side; an unknown side may hold one beyond the window.
local due = KEYS[1]
local pool = KEYS[2]
local now = ARGV[1]
local window = tonumber(ARGV[2])
-- each glob as an anchored Lua pattern: its magic characters escaped, '*' as '.*'
local patterns = {}
for i = 3, #ARGV do
    local escaped = string.gsub(ARGV[i], '[%^%$%(%)%%%.%[%]%+%-%?]', '%%%0')
    patterns[#patterns + 1] = '^' .. string.gsub(escaped, '%*', '.*') .. '$'
end

--#include record
--#include waiting

-- the first `window` entries of the given slices within [from, to], merged in due order; whole = nothing was cut off
local function merged(slices, from, to)
    local entries = {}
    local whole = true
    for _, s in ipairs(slices) do
        local part = redis.call('ZRANGEBYSCORE', sliceKey(due, s), from, to, 'WITHSCORES', 'LIMIT', 0, window)
        if #part / 2 >= window then
            whole = false
        end
        for i = 1, #part, 2 do
            entries[#entries + 1] = { part[i], tonumber(part[i + 1]), part[i + 1] }
        end
    end
    table.sort(entries, function(a, b) return a[2] < b[2] end)
    if #entries > window then
        whole = false
    end
    return entries, whole
end

local function wanted(topic)
    for _, pattern in ipairs(patterns) do
        if string.find(topic, pattern) then
            return true
        end
    end
    return false
end

local function first(entries)
    for i = 1, math.min(#entries, window) do
        local record = redis.call('HGET', pool, entries[i][1])
        if record and wanted(topicOf(record)) then
            return entries[i][3]
        end
    end
    return ''
end

-- slice numbers of a WITHSCORES reply, and the score of its last entry when the reply is full (else nil)
local function slicesOf(reply)
    local slices = {}
    for i = 1, #reply, 2 do
        slices[#slices + 1] = reply[i]
    end
    if #slices >= window then
        return slices, reply[#reply]
    end
    return slices, nil
end

-- the first `window` overdue jobs lie in the `window` slices whose earliest jobs are the earliest, and are due no later
-- than the last of those slices' earliest
local overdueSlices, overdueBound = slicesOf(redis.call('ZRANGEBYSCORE', due, '-inf', now, 'WITHSCORES', 'LIMIT', 0, window))
local overdue, overdueWhole = merged(overdueSlices, '-inf', overdueBound or now)
overdueWhole = overdueWhole and overdueBound == nil
-- later jobs: in the next `window` slices by earliest job (no later than the last of those), or in a slice holding
-- overdue jobs too
local laterSlices, laterBound = slicesOf(redis.call('ZRANGEBYSCORE', due, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, window))
for _, s in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', now)) do
    laterSlices[#laterSlices + 1] = s
end
local later, laterWhole = merged(laterSlices, '(' .. now, laterBound or '+inf')
laterWhole = laterWhole and laterBound == nil
local oldest, nextDue = first(overdue), first(later)
local function known(score, whole)
    return (score ~= '' or whole) and 1 or 0
end
return { oldest, nextDue, known(oldest, overdueWhole), known(nextDue, laterWhole) }
