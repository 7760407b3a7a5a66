-- Reads job records (JobCodec); LuaScript puts it where a script says "--#include record". Two formats, by first byte:
-- compact '~topic\ncreateTime\ndelay\npriority\nttl\ntries\n...' (base-36 numbers, empty = 0), or the older JSON.
local COMPACT_V1 = 126

-- the record's topic; in JSON strings escape every quote, so only the top-level field reads '"topic":"'
local function topicOf(record)
    if string.byte(record, 1) == COMPACT_V1 then
        return string.match(record, '^~([^\n]*)') or '?'
    end
    return string.match(record, '"topic":"([^"]*)"') or '?'
end

-- a compact record's number: base 36, nothing for 0
local function base36(digits)
    return tonumber(digits or '', 36) or 0
end

-- createTime + delay + priority (the due time it was pushed with), ttl and tries (0 = none) of a record
local function timesOf(record)
    if string.byte(record, 1) == COMPACT_V1 then
        local created, delay, priority, ttl, tries =
            string.match(record, '^~[^\n]*\n([^\n]*)\n([^\n]*)\n([^\n]*)\n([^\n]*)\n([^\n]*)\n')
        return base36(created) + base36(delay) + base36(priority), base36(ttl), base36(tries)
    end
    local job = cjson.decode(record)
    local due = (tonumber(job.createTime) or 0) + (tonumber(job.delay) or 0) + (tonumber(job.priority) or 0)
    return due, tonumber(job.ttl) or 0, tonumber(job.tries) or 0
end
