-- A script for LuaScriptTest: it names an include that does not exist.
--#include no_such_include
return 1
