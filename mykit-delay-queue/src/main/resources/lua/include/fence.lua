-- Fencing (cluster package-info); LuaScript puts this where a script says "--#include fence". Each bucket's owner key
-- holds the newest ownership term's token; tokens are equal-width digit strings, so string order is term order.

-- the refusal of a caller whose token is older than the bucket's newest claim, else nil
local function refusal(owner, token)
    local newest = redis.call('GET', owner)
    if newest and newest > token then
        return redis.error_reply('FENCED a newer ownership term holds this bucket')
    end
    return nil
end
