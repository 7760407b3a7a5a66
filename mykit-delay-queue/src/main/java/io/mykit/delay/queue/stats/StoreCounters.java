package io.mykit.delay.queue.stats;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.LuaScript;
import io.mykit.delay.queue.store.NodePipelines;
import io.mykit.delay.queue.store.RedisNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Reads the store's per-bucket stage counters and due-time heads, one pipeline per Redis node for all buckets: the cost
 * grows with buckets, due slices and topics, and with jobs only up to dueMinutes' budget (see the store's package-info
 * for how the counters are kept).
 */
public class StoreCounters {
    /** Waiting jobs a per-topic head sample looks at on each side of now, per bucket. */
    static final int HEAD_WINDOW = 200;

    /** A lost mark is recounted by a reader at most this often (per node); POST /stats/recount is not held back. */
    static final long AUTO_RECOUNT_SPACING_MS = 60_000;

    /** Jobs read per bucket for the per-minute spread, a few ms of Redis: the console asks every 2 s. */
    static final int EXACT_SPREAD_BUDGET = 5_000;

    private final RedisNodes redis;
    private final Keys keys;
    private final int exactSpreadBudget;
    private final LuaScript recount = LuaScript.load("recount");
    private final LuaScript topicHead = LuaScript.load("topic_head");
    private final LuaScript dueMinutes = LuaScript.load("due_minutes");
    private final LuaScript waitingSummary = LuaScript.load("waiting_summary");
    /** One recount at a time: readers that find the mark missing while one runs wait for it, not start their own. */
    private final ReentrantLock recounting = new ReentrantLock();

    private boolean autoRecounted;
    private long lastAutoRecount;

    public StoreCounters(RedisNodes redis, Keys keys) {
        this(redis, keys, EXACT_SPREAD_BUDGET);
    }

    /** {@code exactSpreadBudget}: jobs ahead per bucket that dueMinutes reads one by one before it samples. */
    public StoreCounters(RedisNodes redis, Keys keys, int exactSpreadBudget) {
        this.redis = redis;
        this.keys = keys;
        this.exactSpreadBudget = exactSpreadBudget;
    }

    /**
     * Counts per topic and the due-time head of all buckets; {@code complete} false when the counters lack their mark
     * (never counted in this Redis) and no recount was due yet.
     */
    public record Snapshot(
            Map<String, StageCounts> topics, Long nextDue, Long oldestOverdue, long overdue, boolean complete) {}

    /**
     * The earliest overdue and next due time of one topic's waiting jobs; a side not known may lie beyond the sample.
     */
    public record TopicHead(Long oldestOverdue, boolean oldestOverdueKnown, Long nextDue, boolean nextDueKnown) {}

    public Snapshot snapshot(long now) {
        Snapshot first = read(now);
        // the counters were never counted in this Redis (an older version wrote it, or it lost its data): count once
        if (first.complete() || !recountIfDue()) {
            return first;
        }
        return read(now);
    }

    /**
     * Recounts for a reader that found the mark missing, unless another reader's recount just set it; true when the
     * counters are marked afterwards. Automatic recounts are spaced: a mark lost again and again must not turn every
     * public read into a pass over every job.
     */
    private boolean recountIfDue() {
        recounting.lock();
        try {
            if (step(() -> redis.client().exists(keys.counted()))) {
                return true;
            }
            long now = System.nanoTime();
            if (autoRecounted && now - lastAutoRecount < TimeUnit.MILLISECONDS.toNanos(AUTO_RECOUNT_SPACING_MS)) {
                return false;
            }
            recountBuckets();
            autoRecounted = true;
            lastAutoRecount = now;
            return true;
        } finally {
            recounting.unlock();
        }
    }

    private Snapshot read(long now) {
        return withScripts(() -> readOnce(now));
    }

    private Snapshot readOnce(long now) {
        int n = keys.buckets();
        Response<String> counted;
        List<Response<Map<String, String>>> counts = new ArrayList<>(n);
        List<Response<Object>> waiting = new ArrayList<>(n);
        List<String> args = List.of(Long.toString(now));
        try (NodePipelines<?> pipes = redis.pipelines()) {
            counted = pipes.on(keys.counted()).get(keys.counted());
            for (int b = 0; b < n; b++) {
                AbstractPipeline pipe = pipes.on(keys.counts(b));
                counts.add(pipe.hgetAll(keys.counts(b)));
                waiting.add(pipe.evalsha(waitingSummary.sha(), List.of(keys.due(b)), args));
            }
            pipes.sync();
        }
        Map<String, StageCounts> topics = new TreeMap<>();
        Long nextDue = null;
        Long oldest = null;
        long late = 0;
        for (int b = 0; b < n; b++) {
            counts.get(b).get().forEach((field, value) -> {
                // fields are '<stage>:<topic>'; topics hold no ':'; 'x:' counts ready-list entries of ended jobs
                if (field.startsWith("x:")) {
                    return;
                }
                String topic = field.substring(2);
                topics.put(
                        topic,
                        topics.getOrDefault(topic, StageCounts.NONE).plus(field.charAt(0), Long.parseLong(value)));
            });
            // { earliest, next after now, overdue } (waiting_summary.lua)
            List<?> summary = (List<?>) waiting.get(b).get();
            Long head = parse((String) summary.get(0));
            if (head != null && head <= now) {
                oldest = earlier(oldest, head);
            }
            nextDue = earlier(nextDue, parse((String) summary.get(1)));
            late += (Long) summary.get(2);
        }
        return new Snapshot(topics, nextDue, oldest, late, counted.get() != null);
    }

    /** Samples the first {@link #HEAD_WINDOW} waiting jobs on each side of now in every bucket for one topic. */
    public TopicHead topicHead(String topic, long now) {
        return head(List.of(topic), now);
    }

    /**
     * {@link #topicHead} of every topic some pattern matches ({@code *}: any run of characters), in one script run per
     * bucket however many topics they match.
     */
    public TopicHead head(List<String> patterns, long now) {
        List<String> args = new ArrayList<>(patterns.size() + 2);
        args.add(Long.toString(now));
        args.add(Integer.toString(HEAD_WINDOW));
        args.addAll(patterns);
        List<Object> replies = evalPerBucket(topicHead, b -> List.of(keys.due(b), keys.pool(b)), args);
        Long oldest = null;
        Long next = null;
        boolean oldestKnown = true;
        boolean nextKnown = true;
        for (Object reply : replies) {
            List<?> r = (List<?>) reply;
            oldest = earlier(oldest, parse((String) r.get(0)));
            next = earlier(next, parse((String) r.get(1)));
            oldestKnown &= (Long) r.get(2) == 1;
            nextKnown &= (Long) r.get(3) == 1;
        }
        // a value found is the earliest of its bucket; an unknown bucket could still hold an earlier one of the topic
        return new TopicHead(oldest, oldestKnown, next, nextKnown);
    }

    /**
     * Waiting jobs due in each minute from now on ({@code [0]} = the next 60 s), and those due already. Totals are
     * exact; {@code estimated}: the spread over the minutes was scaled up from a sample of the due slices
     * (due_minutes.lua).
     */
    public record DueMinutes(long overdue, long[] perMinute, boolean estimated) {}

    public DueMinutes dueMinutes(long now, int minutes) {
        List<Object> replies = evalPerBucket(
                dueMinutes,
                b -> List.of(keys.due(b)),
                List.of(Long.toString(now), Integer.toString(minutes), Integer.toString(exactSpreadBudget)));
        long overdue = 0;
        long[] counts = new long[minutes];
        boolean estimated = false;
        for (Object reply : replies) {
            // { overdue, estimated, minute 1, minute 2, ... } (due_minutes.lua)
            List<?> bucket = (List<?>) reply;
            overdue += (Long) bucket.get(0);
            estimated |= (Long) bucket.get(1) == 1;
            for (int m = 0; m < minutes; m++) {
                counts[m] += (Long) bucket.get(m + 2);
            }
        }
        return new DueMinutes(overdue, counts, estimated);
    }

    /**
     * Counts every bucket afresh (recount.lua, atomic per bucket) and marks the counters complete; returns the jobs.
     * Waits for a recount already running rather than run beside it.
     */
    public long recountAll() {
        recounting.lock();
        try {
            return recountBuckets();
        } finally {
            recounting.unlock();
        }
    }

    private long recountBuckets() {
        List<Object> jobs = evalPerBucket(
                recount, b -> List.of(keys.due(b), keys.inflight(b), keys.pool(b), keys.counts(b)), List.of());
        step(() -> redis.client().set(keys.counted(), Long.toString(System.currentTimeMillis())));
        return jobs.stream().mapToLong(Long.class::cast).sum();
    }

    private List<Object> evalPerBucket(
            LuaScript script, java.util.function.IntFunction<List<String>> keysOf, List<String> args) {
        return withScripts(() -> runPerBucket(script, keysOf, args));
    }

    /** Runs work that calls this class's scripts; a NOSCRIPT (Redis restarted or flushed them) loads them once more. */
    private <T> T withScripts(Supplier<T> work) {
        return step(() -> {
            try {
                return work.get();
            } catch (JedisNoScriptException e) {
                loadScripts();
                return work.get();
            }
        });
    }

    private void loadScripts() {
        redis.loadScripts(
                List.of(recount, topicHead, dueMinutes, waitingSummary),
                IntStream.range(0, keys.buckets()).mapToObj(keys::pool).toList());
    }

    private List<Object> runPerBucket(
            LuaScript script, java.util.function.IntFunction<List<String>> keysOf, List<String> args) {
        List<Response<Object>> replies = new ArrayList<>(keys.buckets());
        try (NodePipelines<?> pipes = redis.pipelines()) {
            for (int b = 0; b < keys.buckets(); b++) {
                List<String> bucketKeys = keysOf.apply(b);
                replies.add(pipes.on(bucketKeys.get(0)).evalsha(script.sha(), bucketKeys, args));
            }
            pipes.sync();
        }
        List<Object> values = new ArrayList<>(replies.size());
        replies.forEach(reply -> values.add(reply.get()));
        return values;
    }

    /** The earlier of two times, either of which may be unknown (null). */
    private static Long earlier(Long a, Long b) {
        return a == null ? b : b == null ? a : Long.valueOf(Math.min(a, b));
    }

    private static Long parse(String score) {
        return score.isEmpty() ? null : (long) Double.parseDouble(score);
    }

    private <T> T step(Supplier<T> work) {
        try {
            return work.get();
        } catch (JedisException e) {
            throw new StoreUnavailableException("redis", e.getMessage(), e);
        }
    }
}
