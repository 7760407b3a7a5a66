-- One bucket's waiting jobs in brief, for /stats: the earliest, the next one due after now and how many are overdue.
-- Reads the index and the slices holding overdue jobs (lua/include/waiting.lua), never the others.
-- KEYS[1] due index ZSET of the bucket
-- ARGV[1] now, ms
-- Returns { earliest due or '', next due after now or '', overdue jobs }
local due = KEYS[1]
local now = ARGV[1]

--#include waiting

local head = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
local nextDue = nil
local later = redis.call('ZRANGEBYSCORE', due, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if later[2] then
    nextDue = tonumber(later[2])
end
local overdue = 0
-- a slice holding overdue jobs may hold the next one due too
for _, s in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', now)) do
    local slice = sliceKey(due, s)
    overdue = overdue + redis.call('ZCOUNT', slice, '-inf', now)
    local after = redis.call('ZRANGEBYSCORE', slice, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if after[2] and (nextDue == nil or tonumber(after[2]) < nextDue) then
        nextDue = tonumber(after[2])
    end
end
return { head[2] or '', nextDue and string.format('%.0f', nextDue) or '', overdue }
