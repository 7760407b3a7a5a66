-- Ready lists; LuaScript puts this where a script says "--#include ready". A pull topic's list in a bucket is
-- '<bucket tag>:ready:<topic>' (Keys.ready), and topics hold no ':'.

-- the topic whose ready list this key names
local function topicOfReady(list)
    return string.match(list, ':ready:([^:]*)$')
end
