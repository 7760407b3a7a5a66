-- Shared by the scripts that pump, sweep, hand over or retry; LuaScript puts it where a script says "--#include fence".
-- a caller whose ownership term is older than the bucket's newest claim is refused: a paused or cut-off node
-- must not hand over jobs of a bucket another node owns now (tokens are equal-width digit strings; '' = unchecked)
local function fenced(owner, token)
    if token ~= '' then
        local newest = redis.call('GET', owner)
        if newest and newest > token then
            return redis.error_reply('FENCED a newer ownership term holds this bucket')
        end
    end
    return nil
end
