-- Samples the head of one bucket's delay ZSET for one topic: the earliest overdue and the earliest future due time
-- among the first ARGV[2] entries on each side of now. Bounded work per call, whatever the bucket holds.
-- KEYS[1] delay ZSET of the bucket
-- KEYS[2] job pool HASH of the bucket
-- ARGV[1] now, ms
-- ARGV[2] entries to look at on each side of now
-- ARGV[3] topic
-- Returns { oldest overdue score or '', next due score or '', 1 or 0, 1 or 0 }: a side is known (1) when a job of the
-- topic was found there or the window held that whole side; an unknown side may hold one beyond the window.
local delay = KEYS[1]
local pool = KEYS[2]
local now = ARGV[1]
local window = tonumber(ARGV[2])
local topic = ARGV[3]

--#include record

local function first(entries)
    for i = 1, #entries, 2 do
        local record = redis.call('HGET', pool, entries[i])
        if record and topicOf(record) == topic then
            return entries[i + 1]
        end
    end
    return ''
end

local overdue = redis.call('ZRANGEBYSCORE', delay, '-inf', now, 'WITHSCORES', 'LIMIT', 0, window)
local later = redis.call('ZRANGEBYSCORE', delay, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, window)
local oldest, nextDue = first(overdue), first(later)
local function known(score, entries)
    return (score ~= '' or #entries / 2 < window) and 1 or 0
end
return { oldest, nextDue, known(oldest, overdue), known(nextDue, later) }
