-- The keys of the scripts that end jobs (remove, finish_all, forget), in the order the store's Endings passes them;
-- LuaScript puts this where a script says "--#include ending".
-- KEYS[1] due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[2] in-flight ZSET of the bucket
-- KEYS[3] job pool HASH of the bucket
-- KEYS[4] pull reservation counts HASH of the bucket
-- KEYS[5] restore marker of the bucket: while it exists, every end leaves a tombstone
-- KEYS[6] tombstone ZSET of the bucket (id -> end time, Redis clock)
-- KEYS[7] stage counters HASH of the bucket
-- KEYS[8] finish marks ZSET of the bucket: a pull finish leaves one until its Finish is journaled
--#include record
--#include counters
--#include stage
local reserved = KEYS[4]
local restoring = redis.call('EXISTS', KEYS[5]) == 1
local ended = KEYS[6]
local counts = KEYS[7]
local finished = KEYS[8]
