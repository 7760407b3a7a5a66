-- The Redis clock in ms; LuaScript puts this where a script says "--#include clock". Deadlines, tombstones and marks
-- are all dated by it, and the sweeper compares with it: one clock for every node.
local function nowMs()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
