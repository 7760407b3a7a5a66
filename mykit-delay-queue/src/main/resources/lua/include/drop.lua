-- Shared by the scripts that end many jobs of a bucket at once (finish_all, forget); LuaScript puts it where a script
-- says "--#include drop".
--#include clock
--#include parts

-- dated marks (tombstones, finish marks: id -> Redis time) for many ids at once
local function markAll(marks, at, ids)
    local entries = {}
    for _, id in ipairs(ids) do
        entries[#entries + 1] = at
        entries[#entries + 1] = id
    end
    callInParts('ZADD', marks, entries)
end

-- takes ids out of the in-flight set, the pool and the reservation counts, a part at a time, and leaves a tombstone
-- (Redis clock) for each while a restore runs; returns how many of them were in the pool
local function dropAll(ids, inflight, pool, reserved, ended, restoring)
    callInParts('ZREM', inflight, ids)
    callInParts('HDEL', reserved, ids)
    local dropped = callInParts('HDEL', pool, ids)
    if restoring then
        markAll(ended, nowMs(), ids)
    end
    return dropped
end
