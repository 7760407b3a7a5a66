-- How many of one bucket's waiting jobs are due in each minute from now on, and how many are overdue. Reads every
-- waiting job due within the horizon (lua/include/waiting.lua), so its cost grows with them: for the console.
-- KEYS[1] due index ZSET of the bucket
-- ARGV[1] now, ms
-- ARGV[2] minutes
-- Returns { overdue, due in (now, now + 1 min], due in (now + 1 min, now + 2 min], ... }
local due = KEYS[1]
local now = tonumber(ARGV[1])
local minutes = tonumber(ARGV[2])
local horizon = now + minutes * 60000

local out = { 0 }
for m = 1, minutes do
    out[m + 1] = 0
end
for _, s in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', string.format('%.0f', horizon))) do
    local entries = redis.call('ZRANGEBYSCORE', due .. ':' .. s, '-inf', string.format('%.0f', horizon), 'WITHSCORES')
    for i = 2, #entries, 2 do
        local score = tonumber(entries[i])
        if score <= now then
            out[1] = out[1] + 1
        else
            local m = math.floor((score - now - 1) / 60000)
            out[m + 2] = out[m + 2] + 1
        end
    end
end
return out
