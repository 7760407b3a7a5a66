-- Shared by the scripts that end ready jobs (remove, finish_all) and by reserve, which pops what they leave behind;
-- LuaScript puts it where a script says "--#include stale".
-- An end leaves the job's ready-list entry in place (reserve skips it later): the entries so left are counted in the
-- bucket's counters as 'x:<topic>'. Once they are half of the list, the list is rewritten without them, so a topic
-- nobody pulls keeps no entry per cancelled job; the rewrite reads the whole list, but only after as many ends as
-- half of it, so each end costs a constant share of it.
--#include parts

-- count {@code added} (+: ends, -: entries popped) left entries of the topic's ready list; rewrite it when due
local function staleEntries(counts, pool, list, topic, added)
    local field = 'x:' .. topic
    local stale = redis.call('HINCRBY', counts, field, added)
    if added < 0 then
        if stale <= 0 then
            redis.call('HDEL', counts, field)
        end
        return
    end
    local length = redis.call('LLEN', list)
    if stale * 2 < length then
        return
    end
    redis.call('HDEL', counts, field)
    local ids = redis.call('LRANGE', list, 0, -1)
    local kept = {}
    for _, id in ipairs(ids) do
        -- HEXISTS, not HMGET: a record may be large, and only whether it is there matters
        if redis.call('HEXISTS', pool, id) == 1 then
            kept[#kept + 1] = id
        end
    end
    if #kept == #ids then
        return
    end
    redis.call('DEL', list)
    callInParts('RPUSH', list, kept)
end
