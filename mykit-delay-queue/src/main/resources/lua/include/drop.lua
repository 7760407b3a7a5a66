-- Shared by the scripts that end many jobs of a bucket at once (finish_all, forget); LuaScript puts it where a script
-- says "--#include drop".

-- takes ids out of the in-flight set, the pool and the reservation counts, a thousand ids per command, and leaves a
-- tombstone (Redis clock) for each while a restore runs; returns how many of them were in the pool
local function dropAll(ids, inflight, pool, reserved, ended, restoring)
    local at
    if restoring then
        local t = redis.call('TIME')
        at = t[1] * 1000 + math.floor(t[2] / 1000)
    end
    local dropped = 0
    for from = 1, #ids, 1000 do
        local part = { unpack(ids, from, math.min(from + 999, #ids)) }
        redis.call('ZREM', inflight, unpack(part))
        redis.call('HDEL', reserved, unpack(part))
        dropped = dropped + redis.call('HDEL', pool, unpack(part))
        if at then
            local stones = {}
            for _, id in ipairs(part) do
                stones[#stones + 1] = at
                stones[#stones + 1] = id
            end
            redis.call('ZADD', ended, unpack(stones))
        end
    end
    return dropped
end
