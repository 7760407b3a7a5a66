-- Moves up to ARGV[1] waiting jobs from a bucket's single delay ZSET (the layout without due slices, see Keys) into
-- the due slices (lua/include/waiting.lua), each at the due time it had; atomic, so a crash leaves every job in one of
-- them.
-- KEYS[1] the bucket's old delay ZSET (id -> due time)
-- KEYS[2] due index ZSET of the bucket
-- ARGV[1] jobs to move
-- Returns the jobs still in the old ZSET.
local legacy = KEYS[1]
local due = KEYS[2]

--#include waiting

return sliceLegacy(legacy, due, tonumber(ARGV[1]))
