-- The fence check of a step that hands jobs over; LuaScript puts this where a script says "--#include fence_check".
-- The script binds `owner` (the bucket's owner key) and `token` (the caller's token, '' = unchecked: standalone)
-- before that line. A caller whose term is older than the bucket's newest claim is refused the whole step: a paused
-- or cut-off node must not hand over jobs of a bucket another node owns now.
--#include fence
if token ~= '' then
    local refused = refusal(owner, token)
    if refused then
        return refused
    end
end
