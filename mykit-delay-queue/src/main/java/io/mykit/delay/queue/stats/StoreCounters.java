package io.mykit.delay.queue.stats;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.LuaScript;
import io.mykit.delay.queue.store.NodePipelines;
import io.mykit.delay.queue.store.RedisNodes;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.resps.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Reads the store's per-bucket stage counters and due-time heads, one pipeline per Redis node for all buckets: the
 * cost grows with buckets and topics, never with jobs (see the store's package-info for how the counters are kept).
 */
public class StoreCounters {
    /** Delay-set entries a per-topic head sample looks at on each side of now, per bucket. */
    static final int HEAD_WINDOW = 200;

    private final RedisNodes redis;
    private final Keys keys;
    private final LuaScript recount = LuaScript.load("recount");
    private final LuaScript topicHead = LuaScript.load("topic_head");

    public StoreCounters(RedisNodes redis, Keys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Counts per topic and the due-time head of all buckets. */
    public record Snapshot(Map<String, StageCounts> topics, Long nextDue, Long oldestOverdue, long overdue) {
    }

    /** The earliest overdue and next due time of one topic's waiting jobs; a side not known may lie beyond the sample. */
    public record TopicHead(Long oldestOverdue, boolean oldestOverdueKnown, Long nextDue, boolean nextDueKnown) {
    }

    public Snapshot snapshot(long now) {
        Snapshot first = read(now);
        if (first != null) {
            return first;
        }
        // the counters were never counted in this Redis (an older version wrote it, or it lost its data): count once
        recountAll();
        Snapshot again = read(now);
        return again != null ? again : new Snapshot(Map.of(), null, null, 0);
    }

    /** null when the counters are not known to be complete. */
    private Snapshot read(long now) {
        int n = keys.buckets();
        return step(() -> {
            Response<String> counted;
            List<Response<Map<String, String>>> counts = new ArrayList<>(n);
            List<Response<List<Tuple>>> heads = new ArrayList<>(n);
            List<Response<List<Tuple>>> nexts = new ArrayList<>(n);
            List<Response<Long>> overdue = new ArrayList<>(n);
            try (NodePipelines<?> pipes = redis.pipelines()) {
                counted = pipes.on(keys.counted()).get(keys.counted());
                for (int b = 0; b < n; b++) {
                    AbstractPipeline pipe = pipes.on(keys.counts(b));
                    counts.add(pipe.hgetAll(keys.counts(b)));
                    heads.add(pipe.zrangeWithScores(keys.delay(b), 0, 0));
                    nexts.add(pipe.zrangeByScoreWithScores(keys.delay(b), "(" + now, "+inf", 0, 1));
                    overdue.add(pipe.zcount(keys.delay(b), "-inf", Long.toString(now)));
                }
                pipes.sync();
            }
            if (counted.get() == null) {
                return null;
            }
            Map<String, StageCounts> topics = new TreeMap<>();
            Long nextDue = null;
            Long oldest = null;
            long late = 0;
            for (int b = 0; b < n; b++) {
                counts.get(b).get().forEach((field, value) -> {
                    // fields are '<stage>:<topic>'; topics hold no ':'
                    String topic = field.substring(2);
                    topics.put(topic, topics.getOrDefault(topic, StageCounts.NONE).plus(field.charAt(0), Long.parseLong(value)));
                });
                Long head = score(heads.get(b).get());
                if (head != null && head <= now) {
                    oldest = earlier(oldest, head);
                }
                nextDue = earlier(nextDue, score(nexts.get(b).get()));
                late += overdue.get(b).get();
            }
            return new Snapshot(topics, nextDue, oldest, late);
        });
    }

    /** Samples the first {@link #HEAD_WINDOW} waiting jobs on each side of now in every bucket for one topic. */
    public TopicHead topicHead(String topic, long now) {
        List<Object> replies = evalPerBucket(topicHead, b -> List.of(keys.delay(b), keys.pool(b)),
                List.of(Long.toString(now), Integer.toString(HEAD_WINDOW), topic));
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

    /** Waiting jobs due in each minute from now on ({@code [0]} = the next 60 s), and those due already. */
    public record DueMinutes(long overdue, long[] perMinute) {
    }

    public DueMinutes dueMinutes(long now, int minutes) {
        int n = keys.buckets();
        return step(() -> {
            List<Response<Long>> late = new ArrayList<>(n);
            List<List<Response<Long>>> slots = new ArrayList<>(n);
            try (NodePipelines<?> pipes = redis.pipelines()) {
                for (int b = 0; b < n; b++) {
                    AbstractPipeline pipe = pipes.on(keys.delay(b));
                    late.add(pipe.zcount(keys.delay(b), "-inf", Long.toString(now)));
                    List<Response<Long>> perMinute = new ArrayList<>(minutes);
                    for (int m = 0; m < minutes; m++) {
                        long from = now + m * 60_000L;
                        perMinute.add(pipe.zcount(keys.delay(b), "(" + from, Long.toString(from + 60_000L)));
                    }
                    slots.add(perMinute);
                }
                pipes.sync();
            }
            long overdue = 0;
            long[] counts = new long[minutes];
            for (int b = 0; b < n; b++) {
                overdue += late.get(b).get();
                for (int m = 0; m < minutes; m++) {
                    counts[m] += slots.get(b).get(m).get();
                }
            }
            return new DueMinutes(overdue, counts);
        });
    }

    /** Counts every bucket afresh (recount.lua, atomic per bucket) and marks the counters complete; returns the jobs. */
    public long recountAll() {
        List<Object> jobs = evalPerBucket(recount,
                b -> List.of(keys.delay(b), keys.inflight(b), keys.pool(b), keys.counts(b)), List.of());
        step(() -> redis.client().set(keys.counted(), Long.toString(System.currentTimeMillis())));
        return jobs.stream().mapToLong(Long.class::cast).sum();
    }

    private List<Object> evalPerBucket(LuaScript script, java.util.function.IntFunction<List<String>> keysOf,
                                       List<String> args) {
        return step(() -> {
            try {
                return runPerBucket(script, keysOf, args);
            } catch (JedisNoScriptException e) {
                redis.loadScripts(List.of(recount, topicHead),
                        IntStream.range(0, keys.buckets()).mapToObj(keys::pool).toList());
                return runPerBucket(script, keysOf, args);
            }
        });
    }

    private List<Object> runPerBucket(LuaScript script, java.util.function.IntFunction<List<String>> keysOf,
                                      List<String> args) {
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

    private static Long score(List<Tuple> tuples) {
        return tuples.isEmpty() ? null : (long) tuples.get(0).getScore();
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
