-- Shared by every script that moves jobs between stages; LuaScript puts it where a script says "--#include counters".
-- Scripts that read a record's topic include "record" too.

-- per-topic stage counters of the bucket (store package-info): changes add up here, one HINCRBY per field at the end
local tally = {}
local function bump(stage, topic, delta)
    local field = stage .. ':' .. topic
    tally[field] = (tally[field] or 0) + delta
end
local function saveCounts(counts)
    for field, delta in pairs(tally) do
        if delta ~= 0 and redis.call('HINCRBY', counts, field, delta) == 0 then
            redis.call('HDEL', counts, field)
        end
    end
end
