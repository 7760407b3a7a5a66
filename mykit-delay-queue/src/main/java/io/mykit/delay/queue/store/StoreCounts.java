package io.mykit.delay.queue.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Read-only counts of the working set for metrics and health: per bucket, jobs waiting for their due time, in flight
 * and in ready lists. Sizes only (the stage counters' waiting jobs, ZCARD, LLEN), never members: a few round trips per
 * sample, whatever the backlog.
 */
public final class StoreCounts {
    private final RedisNodes redis;
    private final Keys keys;

    public StoreCounts(RedisNodes redis, Keys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** One bucket's sizes. */
    public record BucketCount(int bucket, long pending, long inflight, long ready) {}

    /** Every bucket's sizes; throws a Jedis exception when Redis does not answer. */
    public List<BucketCount> sample() {
        int buckets = keys.buckets();
        List<List<String>> readyKeys = readyLists(redis.client());
        List<Response<Map<String, String>>> pending = new ArrayList<>(buckets);
        List<Response<Long>> inflight = new ArrayList<>(buckets);
        List<List<Response<Long>>> ready = new ArrayList<>(buckets);
        try (NodePipelines<?> pipes = redis.pipelines()) {
            for (int b = 0; b < buckets; b++) {
                pending.add(pipes.on(keys.counts(b)).hgetAll(keys.counts(b)));
                inflight.add(pipes.on(keys.inflight(b)).zcard(keys.inflight(b)));
                List<Response<Long>> lists = new ArrayList<>();
                for (String key : readyKeys.get(b)) {
                    lists.add(pipes.on(key).llen(key));
                }
                ready.add(lists);
            }
            pipes.sync();
        }
        List<BucketCount> counts = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            long readyJobs = ready.get(b).stream().mapToLong(Response::get).sum();
            // the stage counters' "w:<topic>" fields: jobs waiting in the due slices, per topic
            long waiting = pending.get(b).get().entrySet().stream()
                    .filter(e -> e.getKey().startsWith("w:"))
                    .mapToLong(e -> Long.parseLong(e.getValue()))
                    .sum();
            counts.add(new BucketCount(b, waiting, inflight.get(b).get(), readyJobs));
        }
        return counts;
    }

    /** Throws unless every Redis node that serves a bucket answers (one pipelined EXISTS per bucket). */
    public void ping() {
        try (NodePipelines<?> pipes = redis.pipelines()) {
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.owner(b)).exists(keys.owner(b));
            }
            pipes.sync();
        }
    }

    /** Each bucket's ready lists: one SCAN over a single Redis, one per bucket (on that slot's node) on a cluster. */
    private List<List<String>> readyLists(UnifiedJedis client) {
        List<List<String>> byBucket = new ArrayList<>(keys.buckets());
        for (int b = 0; b < keys.buckets(); b++) {
            byBucket.add(new ArrayList<>());
        }
        if (redis instanceof SingleRedis) {
            // the whole keyspace is walked once per sample, not once per bucket (a shared Redis may hold many keys)
            for (String key : scan(client, keys.readyPatternAllBuckets())) {
                int bucket = bucketOfKey(key);
                if (bucket >= 0 && bucket < keys.buckets() && key.startsWith(keys.ready(bucket, ""))) {
                    byBucket.get(bucket).add(key);
                }
            }
        } else {
            for (int b = 0; b < keys.buckets(); b++) {
                byBucket.get(b).addAll(scan(client, keys.readyPattern(b)));
            }
        }
        return byBucket;
    }

    /** The bucket number in a key's hash tag {prefix:b<i>}, -1 when there is none. */
    private static int bucketOfKey(String key) {
        int close = key.indexOf('}');
        int mark = key.lastIndexOf(":b", close);
        if (close < 0 || mark < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(key.substring(mark + 2, close));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static List<String> scan(UnifiedJedis client, String pattern) {
        List<String> found = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        ScanParams params = new ScanParams().match(pattern).count(1_000);
        do {
            ScanResult<String> page = client.scan(cursor, params);
            found.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        return found;
    }
}
