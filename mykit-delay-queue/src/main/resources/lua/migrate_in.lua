-- Writes jobs that move into this bucket (a bucket-count change), each in the stage it had in its old bucket. Safe to
-- run again for the same jobs: a job whose record is already here (a re-run after a crash) is not queued twice.
-- KEYS[1]  job pool HASH of the bucket
-- KEYS[2]  due index ZSET of the bucket (its slices: lua/include/waiting.lua)
-- KEYS[3]  in-flight ZSET of the bucket
-- KEYS[4]  pull reservation counts HASH of the bucket
-- KEYS[5]  stage counters HASH of the bucket
-- KEYS[6+] ready LISTs of the bucket that the ready jobs below go to
-- ARGV     id, record, due score or '', in-flight deadline or '', reservations or '', ready list (index into
--          KEYS[6+], 1-based) or '0'; six per job
-- Returns the number of jobs whose record was not here before.
local pool = KEYS[1]
local due = KEYS[2]
local inflight = KEYS[3]
local reserved = KEYS[4]
local counts = KEYS[5]

--#include record
--#include counters
--#include waiting

local fresh = 0
for i = 1, #ARGV, 6 do
    local id, record, dueAt, deadline, reservations = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
    local ready = tonumber(ARGV[i + 5])
    local new = redis.call('HSET', pool, id, record) == 1
    if new then
        fresh = fresh + 1
        -- a re-run finds the job here, counted by its first pass
        local stage = 'r'
        if dueAt ~= '' then
            stage = 'w'
        elseif deadline ~= '' then
            stage = 'f'
        end
        bump(stage, topicOf(record), 1)
    end
    if dueAt ~= '' then
        wait(due, id, dueAt)
    end
    if deadline ~= '' then
        redis.call('ZADD', inflight, deadline, id)
    end
    if reservations ~= '' then
        redis.call('HSET', reserved, id, reservations)
    end
    if ready > 0 then
        local list = KEYS[5 + ready]
        -- only a job already here can already be in the list: the scan stays off the lists on a first pass
        if new or not redis.call('LPOS', list, id) then
            redis.call('RPUSH', list, id)
        end
    end
end
saveCounts(counts)
return fresh
