package io.mykit.delay.queue.store;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.common.util.Buckets;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.exceptions.JedisException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * {@link DelayStore} on Redis through a {@link JedisPool}: Jedis' pool is thread-safe, blocking and lets a
 * pipeline and a Lua call share one connection, which is all this store needs.
 */
public class RedisDelayStore implements DelayStore {
    private final JedisPool pool;
    private final Keys keys;
    private final Scripts scripts = new Scripts();
    private final AtomicInteger reserveStart = new AtomicInteger();

    public RedisDelayStore(JedisPool pool, Keys keys) {
        this.pool = pool;
        this.keys = keys;
    }

    public Keys keys() {
        return keys;
    }

    /** Loads the scripts up front so the first push pays no NOSCRIPT round trip. */
    public void loadScripts() {
        withJedis(jedis -> {
            scripts.loadAll(jedis);
            return null;
        });
    }

    @Override
    public List<String> add(Collection<Job> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        Map<Integer, List<String>> argsByBucket = new TreeMap<>();
        for (Job job : jobs) {
            List<String> args = argsByBucket.computeIfAbsent(bucketOf(job.getId()), b -> new ArrayList<>());
            args.add(job.getId());
            args.add(Long.toString(job.dueTime()));
            args.add(JobCodec.encode(job));
        }
        return pipelined(pipe -> {
            List<Response<Object>> replies = new ArrayList<>();
            argsByBucket.forEach((bucket, args) ->
                    replies.add(pipe.evalsha(scripts.add.sha(), List.of(keys.delay(bucket), keys.pool(bucket)), args)));
            return replies;
        }).stream().flatMap(r -> ((List<?>) r).stream()).map(String.class::cast).toList();
    }

    @Override
    public PumpResult pumpDue(int bucket, long now, int limit, long deadline) {
        List<?> reply = (List<?>) eval(scripts.pumpDue,
                List.of(keys.delay(bucket), keys.inflight(bucket), keys.pool(bucket)),
                List.of(Long.toString(now), Integer.toString(limit), Long.toString(deadline)));
        long nextDue = (long) Double.parseDouble((String) reply.get(0));
        List<Job> jobs = new ArrayList<>((reply.size() - 1) / 2);
        for (int i = 2; i < reply.size(); i += 2) {
            jobs.add(JobCodec.decode((String) reply.get(i)));
        }
        return new PumpResult(jobs, nextDue);
    }

    @Override
    public int toReady(int bucket, String topic, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        Object moved = eval(scripts.toReady, List.of(keys.inflight(bucket), keys.ready(bucket, topic)), ids);
        return ((Long) moved).intValue();
    }

    @Override
    public List<Job> reserve(String topic, long deadline, int max) {
        return withJedis(jedis -> {
            int n = keys.buckets();
            // one round trip finds the non-empty ready lists, so an empty topic costs 1 RTT, not n
            Pipeline pipe = jedis.pipelined();
            List<Response<Long>> lengths = new ArrayList<>(n);
            for (int b = 0; b < n; b++) {
                lengths.add(pipe.llen(keys.ready(b, topic)));
            }
            pipe.sync();
            List<Job> reserved = new ArrayList<>();
            int start = Math.floorMod(reserveStart.getAndIncrement(), n);
            for (int i = 0; i < n && reserved.size() < max; i++) {
                int b = (start + i) % n;
                if (lengths.get(b).get() == 0) {
                    continue;
                }
                Object hits = scripts.eval(jedis, scripts.reserve, List.of(keys.ready(b, topic), keys.inflight(b),
                        keys.pool(b)), List.of(Long.toString(deadline), Integer.toString(max - reserved.size())));
                reserved.addAll(decodeReserved(hits));
            }
            return reserved;
        });
    }

    @Override
    public List<Job> reserveIn(int bucket, String topic, long deadline, int max) {
        Object hits = eval(scripts.reserve, List.of(keys.ready(bucket, topic), keys.inflight(bucket), keys.pool(bucket)),
                List.of(Long.toString(deadline), Integer.toString(max)));
        return decodeReserved(hits);
    }

    /** reserve.lua's flat { id, record, id, record, ... } reply as jobs. */
    private static List<Job> decodeReserved(Object reply) {
        List<?> flat = (List<?>) reply;
        List<Job> jobs = new ArrayList<>(flat.size() / 2);
        for (int i = 1; i < flat.size(); i += 2) {
            jobs.add(JobCodec.decode((String) flat.get(i)));
        }
        return jobs;
    }

    @Override
    public RemoveResult finish(String jobId, long now) {
        return remove(jobId, now);
    }

    @Override
    public List<RemoveResult> finishAll(List<String> jobIds, long now) {
        List<Object> replies = pipelined(pipe -> {
            List<Response<Object>> out = new ArrayList<>(jobIds.size());
            for (String id : jobIds) {
                int b = bucketOf(id);
                out.add(pipe.evalsha(scripts.remove.sha(), List.of(keys.delay(b), keys.inflight(b), keys.pool(b)),
                        List.of(id, Long.toString(now))));
            }
            return out;
        });
        return replies.stream().map(reply -> removeResult((Long) reply)).toList();
    }

    @Override
    public RemoveResult delete(String jobId) {
        return remove(jobId, Long.MAX_VALUE);
    }

    private RemoveResult remove(String jobId, long latestScore) {
        int bucket = bucketOf(jobId);
        long result = (Long) eval(scripts.remove,
                List.of(keys.delay(bucket), keys.inflight(bucket), keys.pool(bucket)),
                List.of(jobId, Long.toString(latestScore)));
        return removeResult(result);
    }

    private static RemoveResult removeResult(long reply) {
        return reply == 1 ? RemoveResult.REMOVED : reply == 0 ? RemoveResult.ABSENT : RemoveResult.NOT_DUE;
    }

    @Override
    public Map<Integer, List<String>> sweep(long now, int limitPerBucket) {
        List<Object> replies = pipelined(pipe -> {
            List<Response<Object>> out = new ArrayList<>();
            for (int b = 0; b < keys.buckets(); b++) {
                out.add(pipe.evalsha(scripts.sweep.sha(), List.of(keys.inflight(b), keys.delay(b), keys.pool(b)),
                        List.of(Long.toString(now), Integer.toString(limitPerBucket))));
            }
            return out;
        });
        Map<Integer, List<String>> returned = new LinkedHashMap<>();
        for (int b = 0; b < replies.size(); b++) {
            List<?> ids = (List<?>) replies.get(b);
            if (!ids.isEmpty()) {
                returned.put(b, ids.stream().map(String.class::cast).toList());
            }
        }
        return returned;
    }

    @Override
    public int forget(int bucket, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        Object dropped = eval(scripts.forget, List.of(keys.delay(bucket), keys.inflight(bucket), keys.pool(bucket)), ids);
        return ((Long) dropped).intValue();
    }

    @Override
    public int retry(int bucket, List<Job> jobs, List<Long> dueTimes) {
        if (jobs.isEmpty()) {
            return 0;
        }
        List<String> args = new ArrayList<>(jobs.size() * 3);
        for (int i = 0; i < jobs.size(); i++) {
            args.add(jobs.get(i).getId());
            args.add(Long.toString(dueTimes.get(i)));
            args.add(JobCodec.encode(jobs.get(i)));
        }
        Object moved = eval(scripts.retry, List.of(keys.delay(bucket), keys.inflight(bucket), keys.pool(bucket)), args);
        return ((Long) moved).intValue();
    }

    @Override
    public boolean hasEpoch() {
        return withJedis(jedis -> jedis.exists(keys.epoch()));
    }

    @Override
    public void writeEpoch() {
        withJedis(jedis -> jedis.set(keys.epoch(), Long.toString(System.currentTimeMillis())));
    }

    @Override
    public long clear() {
        return withJedis(jedis -> {
            long removed = 0;
            for (int b = 0; b < keys.buckets(); b++) {
                List<String> doomed = new ArrayList<>(List.of(keys.delay(b), keys.inflight(b), keys.pool(b)));
                String cursor = ScanParams.SCAN_POINTER_START;
                ScanParams params = new ScanParams().match(keys.readyPattern(b)).count(500);
                do {
                    ScanResult<String> page = jedis.scan(cursor, params);
                    doomed.addAll(page.getResult());
                    cursor = page.getCursor();
                } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
                removed += jedis.del(doomed.toArray(String[]::new));
            }
            return removed;
        });
    }

    @Override
    public Optional<StoredJob> peek(String jobId) {
        int bucket = bucketOf(jobId);
        return withJedis(jedis -> {
            Pipeline pipe = jedis.pipelined();
            Response<String> record = pipe.hget(keys.pool(bucket), jobId);
            Response<Double> due = pipe.zscore(keys.delay(bucket), jobId);
            Response<Double> deadline = pipe.zscore(keys.inflight(bucket), jobId);
            pipe.sync();
            if (record.get() == null) {
                return Optional.empty();
            }
            Job job = JobCodec.decode(record.get());
            if (due.get() != null) {
                return Optional.of(new StoredJob(job, StoredJob.Stage.DELAYED, due.get().longValue()));
            }
            if (deadline.get() != null) {
                return Optional.of(new StoredJob(job, StoredJob.Stage.IN_FLIGHT, deadline.get().longValue()));
            }
            return Optional.of(new StoredJob(job, StoredJob.Stage.READY, job.dueTime()));
        });
    }

    @Override
    public int bucketOf(String jobId) {
        return Buckets.of(jobId, keys.buckets());
    }

    @Override
    public int buckets() {
        return keys.buckets();
    }

    private Object eval(LuaScript script, List<String> keyList, List<String> args) {
        return withJedis(jedis -> scripts.eval(jedis, script, keyList, args));
    }

    /** Runs a pipeline of EVALSHA calls; on NOSCRIPT loads the scripts and runs it once more (all callers are idempotent). */
    private List<Object> pipelined(Function<Pipeline, List<Response<Object>>> calls) {
        return withJedis(jedis -> {
            try {
                return runPipeline(jedis, calls);
            } catch (JedisDataException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) {
                    throw e;
                }
                scripts.loadAll(jedis);
                return runPipeline(jedis, calls);
            }
        });
    }

    private static List<Object> runPipeline(Jedis jedis, Function<Pipeline, List<Response<Object>>> calls) {
        Pipeline pipe = jedis.pipelined();
        List<Response<Object>> replies = calls.apply(pipe);
        pipe.sync();
        List<Object> values = new ArrayList<>(replies.size());
        for (Response<Object> reply : replies) {
            values.add(reply.get());
        }
        return values;
    }

    /**
     * Runs one store step. A broken connection (Redis restarted since it was pooled) empties the idle pool and the
     * step runs once more on a fresh connection; every step is safe to repeat (NX adds, guarded moves, sweepable).
     */
    private <T> T withJedis(Function<Jedis, T> work) {
        try {
            return once(work);
        } catch (JedisConnectionException stale) {
            pool.clear();
            try {
                return once(work);
            } catch (JedisException e) {
                throw new StoreUnavailableException("redis", e.getMessage(), e);
            }
        } catch (JedisException e) {
            throw new StoreUnavailableException("redis", e.getMessage(), e);
        }
    }

    private <T> T once(Function<Jedis, T> work) {
        try (Jedis jedis = pool.getResource()) {
            return work.apply(jedis);
        }
    }
}
