-- How many of one bucket's waiting jobs are due in each minute from now on, and how many are overdue. Both totals are
-- exact (a ZCOUNT per due slice, lua/include/waiting.lua). The spread over the minutes is read job by job while the
-- jobs within the horizon number at most ARGV[3]; beyond that, from an even sample of slices (the id's hash places
-- jobs at random, so every slice is a fair sample) scaled to the exact total: bounded work however many jobs wait.
-- KEYS[1] due index ZSET of the bucket
-- ARGV[1] now, ms
-- ARGV[2] minutes
-- ARGV[3] jobs within the horizon read one by one at most
-- Returns { overdue, 1 when the spread is estimated else 0, due in (now, now + 1 min], (now + 1 min, now + 2 min], ... }
local due = KEYS[1]
local now = tonumber(ARGV[1])
local minutes = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local nowArg = string.format('%.0f', now)
local horizon = string.format('%.0f', now + minutes * 60000)

--#include waiting

local out = { 0, 0 }
for m = 1, minutes do
    out[m + 2] = 0
end
-- the slices with jobs ahead, and how many each holds
local withJobs = {}
local ahead = {}
local total = 0
for _, s in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', horizon)) do
    local slice = sliceKey(due, s)
    out[1] = out[1] + redis.call('ZCOUNT', slice, '-inf', nowArg)
    local n = redis.call('ZCOUNT', slice, '(' .. nowArg, horizon)
    if n > 0 then
        withJobs[#withJobs + 1] = slice
        ahead[#withJobs] = n
        total = total + n
    end
end
-- every step-th of them, so that about half the budget is read
local step = 1
if total > budget then
    step = math.ceil(total / math.max(1, math.floor(budget / 2)))
    out[2] = 1
end
local counts = {}
for m = 1, minutes do
    counts[m] = 0
end
local read = 0
for i = 1, #withJobs, step do
    local entries = redis.call('ZRANGEBYSCORE', withJobs[i], '(' .. nowArg, horizon, 'WITHSCORES')
    for j = 2, #entries, 2 do
        local m = math.floor((tonumber(entries[j]) - now - 1) / 60000) + 1
        counts[m] = counts[m] + 1
    end
    read = read + ahead[i]
end
for m = 1, minutes do
    if read > 0 then
        out[m + 2] = math.floor(counts[m] * total / read + 0.5)
    end
end
return out
