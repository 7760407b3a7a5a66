package io.mykit.delay.queue.store;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.common.util.Buckets;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * {@link DelayStore} on one Redis or a Redis Cluster ({@link RedisNodes}): each script touches the keys of one
 * bucket, which share a hash tag and so a slot; batches over many buckets are pipelined per node.
 */
public class RedisDelayStore implements DelayStore {
    /** A restore renews its mark per page; a mark left by a node that died goes away after this. */
    private static final long RESTORE_MARK_TTL_MS = 120_000;
    /** Tombstones left behind by a restore whose node died are trimmed by the sweeper after this. */
    private static final long TOMBSTONE_RETENTION_MS = 600_000;

    private final RedisNodes redis;
    private final Keys keys;
    private final Scripts scripts;
    private final AtomicInteger reserveStart = new AtomicInteger();
    private final FenceTokens fence;
    private final Function<Job, String> encoder;

    /** A store whose bucket steps are not fenced (standalone). */
    public RedisDelayStore(RedisNodes redis, Keys keys) {
        this(redis, keys, new FenceTokens(keys.buckets()));
    }

    /** A store writing compact records (see {@link JobCodec}). */
    public RedisDelayStore(RedisNodes redis, Keys keys, FenceTokens fence) {
        this(redis, keys, fence, true);
    }

    /** {@code compactRecords} false writes JSON records, for gateways of an older version sharing the Redis. */
    public RedisDelayStore(RedisNodes redis, Keys keys, FenceTokens fence, boolean compactRecords) {
        this.redis = redis;
        this.keys = keys;
        this.fence = fence;
        this.encoder = compactRecords ? JobCodec::encode : JobCodec::encodeJson;
        this.scripts = new Scripts(redis, IntStream.range(0, keys.buckets()).mapToObj(keys::owner).toList());
    }

    public FenceTokens fence() {
        return fence;
    }

    public Keys keys() {
        return keys;
    }

    /** Loads the scripts up front so the first push pays no NOSCRIPT round trip. */
    public void loadScripts() {
        step(() -> {
            scripts.loadAll();
            return null;
        });
    }

    @Override
    public List<String> add(Collection<Job> jobs) {
        return addAll(jobs, false);
    }

    @Override
    public List<String> addUnlessEnded(Collection<Job> jobs) {
        return addAll(jobs, true);
    }

    private List<String> addAll(Collection<Job> jobs, boolean unlessEnded) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        Map<Integer, List<String>> argsByBucket = recordsByBucket(jobs);
        return pipelined(pipe -> {
            List<Response<Object>> replies = new ArrayList<>();
            argsByBucket.forEach((bucket, args) -> replies.add(evalsha(pipe, scripts.add, unlessEnded
                    ? List.of(keys.due(bucket), keys.pool(bucket), keys.counts(bucket), keys.ended(bucket),
                            keys.finished(bucket))
                    : List.of(keys.due(bucket), keys.pool(bucket), keys.counts(bucket)), args)));
            return replies;
        }).stream().flatMap(r -> ((List<?>) r).stream()).map(String.class::cast).toList();
    }

    @Override
    public int put(Collection<Job> jobs) {
        if (jobs.isEmpty()) {
            return 0;
        }
        Map<Integer, List<String>> argsByBucket = recordsByBucket(jobs);
        return pipelined(pipe -> {
            List<Response<Object>> replies = new ArrayList<>();
            argsByBucket.forEach((bucket, args) -> replies.add(evalsha(pipe, scripts.put,
                    List.of(keys.due(bucket), keys.inflight(bucket), keys.pool(bucket), keys.reserved(bucket),
                            keys.counts(bucket)), args)));
            return replies;
        }).stream().mapToInt(r -> ((Long) r).intValue()).sum();
    }

    /** id, due time, record triplets per bucket, as add.lua and put.lua take them. */
    private Map<Integer, List<String>> recordsByBucket(Collection<Job> jobs) {
        Map<Integer, List<String>> argsByBucket = new TreeMap<>();
        for (Job job : jobs) {
            List<String> args = argsByBucket.computeIfAbsent(bucketOf(job.getId()), b -> new ArrayList<>());
            args.add(job.getId());
            args.add(Long.toString(job.dueTime()));
            args.add(encoder.apply(job));
        }
        return argsByBucket;
    }

    @Override
    public void beginRestore() {
        batch(pipes -> {
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.restoring(b)).incr(keys.restoring(b));
                pipes.on(keys.restoring(b)).pexpire(keys.restoring(b), RESTORE_MARK_TTL_MS);
            }
        });
    }

    @Override
    public void keepRestoring() {
        batch(pipes -> {
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.restoring(b)).pexpire(keys.restoring(b), RESTORE_MARK_TTL_MS);
                pipes.on(keys.ended(b)).pexpire(keys.ended(b), RESTORE_MARK_TTL_MS);
            }
        });
    }

    @Override
    public void endRestore() {
        pipelined(pipe -> {
            List<Response<Object>> replies = new ArrayList<>();
            for (int b = 0; b < keys.buckets(); b++) {
                replies.add(evalsha(pipe, scripts.endRestore, List.of(keys.restoring(b), keys.ended(b)), List.of()));
            }
            return replies;
        });
    }

    @Override
    public void markEnded(String jobId) {
        int bucket = bucketOf(jobId);
        eval(scripts.markEnded, List.of(keys.restoring(bucket), keys.ended(bucket)), List.of(jobId));
    }

    @Override
    public void forgetFinishMarks(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return;
        }
        Map<Integer, List<String>> byBucket = new TreeMap<>();
        jobIds.forEach(id -> byBucket.computeIfAbsent(bucketOf(id), b -> new ArrayList<>()).add(id));
        batch(pipes -> byBucket.forEach((b, ids) -> pipes.on(keys.finished(b)).zrem(keys.finished(b),
                ids.toArray(String[]::new))));
    }

    @Override
    public void markFinished(String jobId, long at) {
        String key = keys.finished(bucketOf(jobId));
        batch(pipes -> pipes.on(key).zadd(key, at, jobId));
    }

    @Override
    public Map<String, Long> finishMarksBefore(long before, int limitPerBucket) {
        List<Response<List<Tuple>>> replies = new ArrayList<>();
        batch(pipes -> {
            for (int b = 0; b < keys.buckets(); b++) {
                String marks = keys.finished(b);
                replies.add(pipes.on(marks).zrangeByScoreWithScores(marks, Double.NEGATIVE_INFINITY, before, 0,
                        limitPerBucket));
            }
        });
        Map<String, Long> marks = new LinkedHashMap<>();
        replies.forEach(reply -> reply.get().forEach(t -> marks.put(t.getElement(), (long) t.getScore())));
        return marks;
    }

    @Override
    public void claim(int bucket, String token) {
        evalFenced(bucket, scripts.claim, List.of(keys.owner(bucket)), List.of(token));
    }

    @Override
    public java.util.Set<Integer> claimAgain(Collection<Integer> buckets) {
        List<Integer> order = List.copyOf(buckets);
        if (order.isEmpty()) {
            return java.util.Set.of();
        }
        List<Object> replies = pipelined(pipe -> {
            List<Response<Object>> out = new ArrayList<>(order.size());
            for (int b : order) {
                out.add(evalsha(pipe, scripts.claim, List.of(keys.owner(b)), List.of(fence.token(b))));
            }
            return out;
        });
        java.util.Set<Integer> outranked = new java.util.TreeSet<>();
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof JedisDataException) {
                outranked.add(order.get(i));
                fence.refused(order.get(i));
            }
        }
        return outranked;
    }

    @Override
    public PumpResult pumpDue(int bucket, long now, int limit, long handOverMs) {
        return pump(bucket, List.of(Long.toString(now), Integer.toString(limit), Long.toString(handOverMs),
                fence.token(bucket)));
    }

    @Override
    public PumpResult pumpDueToReady(int bucket, long now, int limit) {
        // no hand-over deadline: the jobs never sit in flight
        return pump(bucket, List.of(Long.toString(now), Integer.toString(limit), "0", fence.token(bucket),
                keys.ready(bucket, "")));
    }

    private PumpResult pump(int bucket, List<String> args) {
        List<?> reply = (List<?>) evalFenced(bucket, scripts.pumpDue,
                List.of(keys.due(bucket), keys.inflight(bucket), keys.pool(bucket), keys.owner(bucket),
                        keys.counts(bucket)), args);
        long nextDue = (long) Double.parseDouble((String) reply.get(0));
        List<Job> jobs = new ArrayList<>((reply.size() - 1) / 2);
        for (int i = 2; i < reply.size(); i += 2) {
            jobs.add(JobCodec.decode((String) reply.get(i - 1), (String) reply.get(i)));
        }
        return new PumpResult(jobs, nextDue);
    }

    @Override
    public java.util.Set<Integer> outranked(Collection<Integer> buckets) {
        List<Integer> fenced = buckets.stream().distinct().filter(b -> !fence.token(b).isEmpty()).toList();
        if (fenced.isEmpty()) {
            return java.util.Set.of();
        }
        return step(() -> {
            List<Response<String>> newest = new ArrayList<>(fenced.size());
            try (NodePipelines<?> pipes = redis.pipelines()) {
                fenced.forEach(b -> newest.add(pipes.on(keys.owner(b)).get(keys.owner(b))));
                pipes.sync();
            }
            java.util.Set<Integer> outranked = new java.util.TreeSet<>();
            for (int i = 0; i < fenced.size(); i++) {
                String token = newest.get(i).get();
                if (token != null && token.compareTo(fence.token(fenced.get(i))) > 0) {
                    outranked.add(fenced.get(i));
                    fence.refused(fenced.get(i));
                }
            }
            return outranked;
        });
    }

    @Override
    public int toReady(int bucket, String topic, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        List<String> args = new ArrayList<>(ids.size() + 1);
        args.add(fence.token(bucket));
        args.addAll(ids);
        Object moved = evalFenced(bucket, scripts.toReady,
                List.of(keys.inflight(bucket), keys.ready(bucket, topic), keys.owner(bucket), keys.counts(bucket)), args);
        return ((Long) moved).intValue();
    }

    @Override
    public List<Job> reserve(String topic, long ttrMs, int max) {
        return step(() -> {
            int n = keys.buckets();
            // one round trip per node finds the non-empty ready lists, so an empty topic costs no n round trips
            List<Long> lengths = new ArrayList<>(n);
            try (NodePipelines<?> pipes = redis.pipelines()) {
                List<Response<Long>> replies = new ArrayList<>(n);
                for (int b = 0; b < n; b++) {
                    replies.add(pipes.on(keys.ready(b, topic)).llen(keys.ready(b, topic)));
                }
                pipes.sync();
                replies.forEach(reply -> lengths.add(reply.get()));
            }
            List<Job> reserved = new ArrayList<>();
            int start = Math.floorMod(reserveStart.getAndIncrement(), n);
            for (int i = 0; i < n && reserved.size() < max; i++) {
                int b = (start + i) % n;
                if (lengths.get(b) == 0) {
                    continue;
                }
                Object hits = scripts.eval(scripts.reserve, reserveKeys(b, topic),
                        List.of(Long.toString(ttrMs), Integer.toString(max - reserved.size())));
                reserved.addAll(decodeReserved(hits));
            }
            return reserved;
        });
    }

    @Override
    public Reservation reserveFrom(int bucket, String topic, long ttrMs, int max) {
        Object hits = eval(scripts.reserve, reserveKeys(bucket, topic),
                List.of(Long.toString(ttrMs), Integer.toString(max)));
        List<?> flat = (List<?>) hits;
        // reserve.lua ends its reply with the list's length after the reservation
        boolean drained = flat.size() % 3 == 1 && (Long) flat.get(flat.size() - 1) == 0;
        return new Reservation(decodeReserved(hits), drained);
    }

    @Override
    public boolean unreserve(Job job) {
        int b = bucketOf(job.getId());
        // attempts is the reservation count minus one (decodeReserved)
        return (Long) eval(scripts.unreserve, reserveKeys(b, job.getTopic()),
                List.of(job.getId(), Integer.toString(job.getAttempts() + 1))) == 1;
    }

    private List<String> reserveKeys(int bucket, String topic) {
        return List.of(keys.ready(bucket, topic), keys.inflight(bucket), keys.pool(bucket), keys.reserved(bucket),
                keys.counts(bucket));
    }

    /**
     * A flat { id, record, reservations, ..., left } reply as jobs whose attempts are their earlier reservations
     * ({@code left}, the ready list's length after the reservation, is the one element past the triples).
     */
    private static List<Job> decodeReserved(Object reply) {
        List<?> flat = (List<?>) reply;
        List<Job> jobs = new ArrayList<>(flat.size() / 3);
        for (int i = 0; i + 2 < flat.size(); i += 3) {
            Job job = JobCodec.decode((String) flat.get(i), (String) flat.get(i + 1));
            job.setAttempts((int) ((Long) flat.get(i + 2) - 1));
            jobs.add(job);
        }
        return jobs;
    }

    @Override
    public RemoveResult finish(String jobId, long now) {
        return remove(jobId, now, "finish");
    }

    @Override
    public List<RemoveResult> finishAll(List<String> jobIds, long now) {
        // one script call per bucket (and per FINISH_CALL_IDS ids of it) instead of one per job
        Map<Integer, List<Integer>> positionsByBucket = new java.util.TreeMap<>();
        for (int i = 0; i < jobIds.size(); i++) {
            positionsByBucket.computeIfAbsent(bucketOf(jobIds.get(i)), b -> new ArrayList<>()).add(i);
        }
        List<List<Integer>> calls = new ArrayList<>();
        List<Object> replies = pipelined(pipe -> {
            // run again after a NOSCRIPT: the calls are listed anew
            calls.clear();
            List<Response<Object>> out = new ArrayList<>();
            positionsByBucket.forEach((b, positions) -> {
                for (int from = 0; from < positions.size(); from += FINISH_CALL_IDS) {
                    List<Integer> part = positions.subList(from, Math.min(positions.size(), from + FINISH_CALL_IDS));
                    List<String> args = new ArrayList<>(part.size() + 2);
                    args.add(Long.toString(now));
                    args.add(keys.ready(b, ""));
                    part.forEach(position -> args.add(jobIds.get(position)));
                    calls.add(part);
                    out.add(evalsha(pipe, scripts.finishAll, endKeys(b), args));
                }
            });
            return out;
        });
        RemoveResult[] results = new RemoveResult[jobIds.size()];
        for (int c = 0; c < calls.size(); c++) {
            List<?> codes = (List<?>) replies.get(c);
            List<Integer> positions = calls.get(c);
            for (int k = 0; k < positions.size(); k++) {
                results[positions.get(k)] = removeResult((Long) codes.get(k));
            }
        }
        return List.of(results);
    }

    @Override
    public RemoveResult delete(String jobId) {
        return remove(jobId, Long.MAX_VALUE, "cancel");
    }

    @Override
    public RescheduleResult reschedule(Job job) {
        int b = bucketOf(job.getId());
        long result = (Long) eval(scripts.reschedule, List.of(keys.due(b), keys.inflight(b), keys.pool(b)),
                List.of(job.getId(), Long.toString(job.dueTime()), encoder.apply(job)));
        return result == 1 ? RescheduleResult.RESCHEDULED : result == 0 ? RescheduleResult.NOT_IN_REDIS
                : RescheduleResult.NOT_WAITING;
    }

    private RemoveResult remove(String jobId, long latestScore, String mode) {
        int b = bucketOf(jobId);
        long result = (Long) eval(scripts.remove, endKeys(b), List.of(jobId, Long.toString(latestScore), mode,
                keys.ready(b, "")));
        return removeResult(result);
    }

    /** Most ids one finish_all.lua call takes: Lua's unpack holds a few thousand values. */
    private static final int FINISH_CALL_IDS = 500;

    /**
     * The keys of scripts that end jobs: delay, in-flight, pool, reservations, restore marker, tombstones, counters,
     * finish marks.
     */
    private List<String> endKeys(int bucket) {
        return List.of(keys.due(bucket), keys.inflight(bucket), keys.pool(bucket), keys.reserved(bucket),
                keys.restoring(bucket), keys.ended(bucket), keys.counts(bucket), keys.finished(bucket));
    }

    private static RemoveResult removeResult(long reply) {
        return switch ((int) reply) {
            case 1 -> RemoveResult.REMOVED;
            case 0 -> RemoveResult.ABSENT;
            case -1 -> RemoveResult.NOT_DUE;
            case -3 -> RemoveResult.NOT_HANDED_OVER;
            default -> RemoveResult.IN_FLIGHT;
        };
    }

    @Override
    public Map<Integer, Swept> sweep(Collection<Integer> buckets, int limitPerBucket, int defaultTries, long parkMs) {
        List<Integer> order = List.copyOf(buckets);
        if (order.isEmpty()) {
            return Map.of();
        }
        List<Object> replies = pipelined(pipe -> {
            List<Response<Object>> out = new ArrayList<>();
            for (int b : order) {
                out.add(evalsha(pipe, scripts.sweep, List.of(keys.inflight(b), keys.due(b), keys.pool(b),
                        keys.reserved(b), keys.restoring(b), keys.ended(b), keys.owner(b), keys.counts(b),
                        keys.legacyDelay(b)),
                        List.of(Integer.toString(limitPerBucket), Integer.toString(defaultTries), Long.toString(parkMs),
                                Long.toString(TOMBSTONE_RETENTION_MS), fence.token(b))));
            }
            return out;
        });
        Map<Integer, Swept> swept = new LinkedHashMap<>();
        for (int i = 0; i < replies.size(); i++) {
            int b = order.get(i);
            if (replies.get(i) instanceof JedisDataException) {
                // this bucket has a newer owner: skip it, the others were swept
                fence.refused(b);
                continue;
            }
            List<?> reply = (List<?>) replies.get(i);
            List<?> returned = (List<?>) reply.get(0);
            // each triple's third is the tries used, which decodeReserved reads as a reservation count (attempts + 1)
            List<Job> spent = decodeReserved(reply.get(1));
            spent.forEach(job -> job.setAttempts(job.getAttempts() + 1));
            if (!returned.isEmpty() || !spent.isEmpty()) {
                swept.put(b, new Swept(returned.stream().map(String.class::cast).toList(), spent));
            }
        }
        return swept;
    }

    @Override
    public Released release(String jobId, long dueAt, long now, int defaultTries) {
        int b = bucketOf(jobId);
        List<?> reply = (List<?>) eval(scripts.release,
                List.of(keys.due(b), keys.inflight(b), keys.pool(b), keys.reserved(b), keys.counts(b)),
                List.of(jobId, Long.toString(dueAt), Long.toString(now), Integer.toString(defaultTries)));
        return switch (((Long) reply.get(0)).intValue()) {
            case 1 -> new Released(Released.Outcome.RELEASED, null);
            case 0 -> new Released(Released.Outcome.ABSENT, null);
            case -1 -> new Released(Released.Outcome.NOT_RESERVED, null);
            default -> {
                Job job = JobCodec.decode(jobId, (String) reply.get(1));
                job.setAttempts(((Long) reply.get(2)).intValue());
                yield new Released(Released.Outcome.SPENT, job);
            }
        };
    }

    @Override
    public boolean touch(String jobId, long ttrMs) {
        int b = bucketOf(jobId);
        return (Long) eval(scripts.touch, List.of(keys.inflight(b), keys.reserved(b)),
                List.of(jobId, Long.toString(ttrMs))) == 1;
    }

    @Override
    public int forget(int bucket, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        Object dropped = eval(scripts.forget, endKeys(bucket), ids);
        return ((Long) dropped).intValue();
    }

    @Override
    public List<String> park(int bucket, List<Job> jobs, long parkMs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        List<String> args = new ArrayList<>(jobs.size() * 2 + 2);
        args.add(fence.token(bucket));
        args.add(Long.toString(parkMs));
        for (Job job : jobs) {
            args.add(job.getId());
            args.add(encoder.apply(job));
        }
        List<?> parked = (List<?>) evalFenced(bucket, scripts.park,
                List.of(keys.inflight(bucket), keys.pool(bucket), keys.owner(bucket)), args);
        return parked.stream().map(String.class::cast).toList();
    }

    @Override
    public int retry(int bucket, List<Job> jobs, List<Long> dueTimes) {
        if (jobs.isEmpty()) {
            return 0;
        }
        List<String> args = new ArrayList<>(jobs.size() * 3 + 1);
        args.add(fence.token(bucket));
        for (int i = 0; i < jobs.size(); i++) {
            args.add(jobs.get(i).getId());
            args.add(Long.toString(dueTimes.get(i)));
            args.add(encoder.apply(jobs.get(i)));
        }
        Object moved = evalFenced(bucket, scripts.retry,
                List.of(keys.due(bucket), keys.inflight(bucket), keys.pool(bucket), keys.owner(bucket),
                        keys.counts(bucket)), args);
        return ((Long) moved).intValue();
    }

    @Override
    public boolean hasEpoch() {
        // every bucket's mark: on a cluster, one master restarted empty loses only the marks of its slots
        return step(() -> {
            List<Response<Boolean>> marks = new ArrayList<>(keys.buckets());
            try (NodePipelines<?> pipes = redis.pipelines()) {
                for (int b = 0; b < keys.buckets(); b++) {
                    marks.add(pipes.on(keys.epoch(b)).exists(keys.epoch(b)));
                }
                pipes.sync();
            }
            return marks.stream().allMatch(Response::get);
        });
    }

    @Override
    public void writeEpoch() {
        String now = Long.toString(System.currentTimeMillis());
        batch(pipes -> {
            // the layout too: a restore placed every job by this gateway's count, and Redis lost the old record
            pipes.on(keys.layout()).set(keys.layout(), Integer.toString(keys.buckets()));
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.epoch(b)).set(keys.epoch(b), now);
            }
        });
    }

    @Override
    public long clear() {
        return step(() -> {
            UnifiedJedis client = redis.client();
            long removed = 0;
            for (int b = 0; b < keys.buckets(); b++) {
                // the restore marks and tombstones stay: a restore running now must still skip jobs that ended; the
                // pattern holds the bucket's hash tag, so on a cluster each SCAN runs on the one node of that slot
                List<String> doomed = new ArrayList<>(List.of(keys.due(b), keys.legacyDelay(b), keys.inflight(b),
                        keys.pool(b), keys.reserved(b), keys.counts(b)));
                // every slice the bucket can have: one DEL, so a job added meanwhile cannot be left in a slice unindexed
                doomed.addAll(keys.dueSlices(b));
                String cursor = ScanParams.SCAN_POINTER_START;
                ScanParams params = new ScanParams().match(keys.readyPattern(b)).count(500);
                do {
                    ScanResult<String> page = client.scan(cursor, params);
                    doomed.addAll(page.getResult());
                    cursor = page.getCursor();
                } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
                removed += client.del(doomed.toArray(String[]::new));
            }
            return removed;
        });
    }

    /** Publishes messages on a channel in one round trip (cross-node wake-ups). */
    public void publish(String channel, List<String> messages) {
        // a cluster passes a PUBLISH on to every node: any node will do, here the one of the channel name's slot
        batch(pipes -> messages.forEach(message -> pipes.on(channel).publish(channel, message)));
    }

    /** Listens on a channel until {@code listener} unsubscribes or the connection breaks (then it throws). */
    public void listen(String channel, JedisPubSub listener) {
        redis.client().subscribe(listener, channel);
    }

    @Override
    public Optional<StoredJob> peek(String jobId) {
        int bucket = bucketOf(jobId);
        return step(() -> {
            Response<String> record;
            Response<Double> due;
            Response<Double> deadline;
            try (NodePipelines<?> pipes = redis.pipelines()) {
                // the three keys share the bucket's slot: one pipeline on one node
                record = pipes.on(keys.pool(bucket)).hget(keys.pool(bucket), jobId);
                due = pipes.on(keys.due(bucket)).zscore(keys.dueSlice(bucket, jobId), jobId);
                deadline = pipes.on(keys.inflight(bucket)).zscore(keys.inflight(bucket), jobId);
                pipes.sync();
            }
            if (record.get() == null) {
                return Optional.empty();
            }
            Job job = JobCodec.decode(jobId, record.get());
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
        return step(() -> scripts.eval(script, keyList, args));
    }

    /** {@link #eval} of a step that names the caller's ownership term: a FENCED reply stops this node's bucket. */
    private Object evalFenced(int bucket, LuaScript script, List<String> keyList, List<String> args) {
        return step(() -> {
            try {
                return scripts.eval(script, keyList, args);
            } catch (JedisDataException e) {
                if (isFenced(e)) {
                    throw fence.refused(bucket);
                }
                throw e;
            }
        });
    }

    private static boolean isFenced(JedisDataException e) {
        // the first word of an error reply is its code; older servers put ERR in front of it
        String message = e.getMessage();
        return message != null && (message.startsWith("FENCED") || message.startsWith("ERR FENCED"));
    }

    /** EVALSHA queued on the pipeline of the node serving {@code keyList} (one bucket's keys, so one slot). */
    private static Response<Object> evalsha(NodePipelines<?> pipes, LuaScript script, List<String> keyList,
                                            List<String> args) {
        return pipes.on(keyList.get(0)).evalsha(script.sha(), keyList, args);
    }

    /** Plain commands pipelined per node, replies unread. */
    private void batch(Consumer<NodePipelines<?>> calls) {
        step(() -> {
            try (NodePipelines<?> pipes = redis.pipelines()) {
                calls.accept(pipes);
                pipes.sync();
            }
            return null;
        });
    }

    /** Runs EVALSHA calls pipelined per node; on NOSCRIPT loads the scripts and runs them once more (all callers are idempotent). */
    private List<Object> pipelined(Function<NodePipelines<?>, List<Response<Object>>> calls) {
        return step(() -> {
            try {
                return runPipeline(calls);
            } catch (JedisNoScriptException e) {
                scripts.loadAll();
                return runPipeline(calls);
            }
        });
    }

    private List<Object> runPipeline(Function<NodePipelines<?>, List<Response<Object>>> calls) {
        List<Response<Object>> replies;
        try (NodePipelines<?> pipes = redis.pipelines()) {
            replies = calls.apply(pipes);
            pipes.sync();
        }
        List<Object> values = new ArrayList<>(replies.size());
        for (Response<Object> reply : replies) {
            try {
                values.add(reply.get());
            } catch (JedisDataException e) {
                if (!isFenced(e)) {
                    throw e;
                }
                // a refused bucket must not cost the other buckets of the pipeline their replies
                values.add(e);
            }
        }
        return values;
    }

    /**
     * Runs one store step. A broken connection (Redis restarted since it was pooled) or a cluster redirection (a slot
     * moved) refreshes the connections and the slot map and the step runs once more; every step is safe to repeat
     * (NX adds, guarded moves, sweepable).
     */
    private <T> T step(Supplier<T> work) {
        try {
            return work.get();
        } catch (JedisConnectionException | JedisRedirectionException stale) {
            try {
                redis.refresh();
                return work.get();
            } catch (JedisException e) {
                e.addSuppressed(stale);
                throw new StoreUnavailableException("redis", e.getMessage(), e);
            }
        } catch (JedisException e) {
            throw new StoreUnavailableException("redis", e.getMessage(), e);
        }
    }
}
