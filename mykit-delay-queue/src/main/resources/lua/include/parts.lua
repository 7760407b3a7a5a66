-- Commands over many values; LuaScript puts this where a script says "--#include parts". Lua's unpack takes a few
-- thousand values at most, so such a command runs a part at a time (an even count: score/member pairs stay whole).
local PART = 1000

-- the part of values that starts at index from (a loop steps from by PART)
local function partAt(values, from)
    return { unpack(values, from, math.min(from + PART - 1, #values)) }
end

-- runs `command key v1 v2 ...` over all the values, a part at a time; returns the sum of the integer replies
local function callInParts(command, key, values)
    local sum = 0
    for from = 1, #values, PART do
        local reply = redis.call(command, key, unpack(values, from, math.min(from + PART - 1, #values)))
        if type(reply) == 'number' then
            sum = sum + reply
        end
    end
    return sum
end
