-- Reads job records (JobCodec); LuaScript puts it where a script says "--#include record". Two formats, by first byte:
-- compact '~topic\ncreateTime\ndelay\n[tagged lines: p priority, l ttl, t tries, ...]\nbody' (base-36 numbers,
-- an untagged field is 0, the first empty line ends the head), or JSON (written with compact records off).
local COMPACT_V1 = 126

-- the record's topic; in JSON strings escape every quote, so only the top-level field reads '"topic":"'
local function topicOf(record)
    if string.byte(record, 1) == COMPACT_V1 then
        return string.match(record, '^~([^\n]*)') or '?'
    end
    return string.match(record, '"topic":"([^"]*)"') or '?'
end

-- a compact record's number: base 36, 0 when absent
local function base36(digits)
    return tonumber(digits or '', 36) or 0
end

-- createTime + delay + priority (the due time it was pushed with), ttl, tries (0 = none) and attempts (failed sends
-- so far) of a record
local function timesOf(record)
    if string.byte(record, 1) == COMPACT_V1 then
        -- no head line is empty, so the first '\n\n' ends the head; tagged lines each start after a '\n'
        local created, delay, tags = string.match(record, '^~[^\n]*\n([^\n]*)\n([^\n]*)(.-)\n\n')
        tags = (tags or '') .. '\n'
        local function tagged(tag)
            return base36(string.match(tags, '\n' .. tag .. '([^\n]*)\n'))
        end
        return base36(created) + base36(delay) + tagged('p'), tagged('l'), tagged('t'), tagged('a')
    end
    local job = cjson.decode(record)
    local due = (tonumber(job.createTime) or 0) + (tonumber(job.delay) or 0) + (tonumber(job.priority) or 0)
    return due, tonumber(job.ttl) or 0, tonumber(job.tries) or 0, tonumber(job.attempts) or 0
end

-- a record whose attempts reached its tries is spent: park.lua writes one so for a job that is to be buried
local function markedSpent(record)
    local _, _, tries, attempts = timesOf(record)
    return tries > 0 and attempts >= tries
end
