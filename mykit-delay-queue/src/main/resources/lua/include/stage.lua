-- A job's stage in its bucket, for scripts whose first three keys are the bucket's due index, in-flight ZSET and job
-- pool (bound here); LuaScript puts this where a script says "--#include stage".
--#include waiting
local due = KEYS[1]
local inflight = KEYS[2]
local pool = KEYS[3]

-- w waiting in a due slice, f in flight, r ready (in the pool, in neither set); a job is never both waiting and in
-- flight
local function stageFrom(waiting, flying)
    if waiting then
        return 'w'
    end
    if flying then
        return 'f'
    end
    return 'r'
end

-- the stage of a job the pool holds, read from the due slices and the in-flight ZSET
local function stageOf(id)
    if waitingScore(due, id) then
        return 'w'
    end
    return stageFrom(false, redis.call('ZSCORE', inflight, id))
end
