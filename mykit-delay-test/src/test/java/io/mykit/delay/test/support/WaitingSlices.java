package io.mykit.delay.test.support;

import io.mykit.delay.queue.store.DelaySlices;
import io.mykit.delay.queue.store.Keys;
import java.util.HashMap;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ZAddParams;
import redis.clients.jedis.resps.Tuple;

/** Reads and writes a bucket's waiting jobs as the gateway keeps them: due slices and their index (DelaySlices). */
public final class WaitingSlices {
    private WaitingSlices() {}

    /** Makes a job wait in its due slice, as lua/include/waiting.lua does for a new member. */
    public static void add(AbstractPipeline pipe, Keys keys, int bucket, String id, double due) {
        pipe.zadd(keys.dueSlice(bucket, id), due, id);
        pipe.zadd(
                keys.due(bucket),
                due,
                Integer.toString(DelaySlices.of(id)),
                ZAddParams.zAddParams().lt());
    }

    public static void add(UnifiedJedis redis, Keys keys, int bucket, String id, double due) {
        redis.zadd(keys.dueSlice(bucket, id), due, id);
        redis.zadd(
                keys.due(bucket),
                due,
                Integer.toString(DelaySlices.of(id)),
                ZAddParams.zAddParams().lt());
    }

    /** The job's due time while it waits, else null. */
    public static Double score(UnifiedJedis redis, Keys keys, int bucket, String id) {
        return redis.zscore(keys.dueSlice(bucket, id), id);
    }

    /** Every waiting job of the bucket with its due time, read through the index. */
    public static Map<String, Double> all(UnifiedJedis redis, Keys keys, int bucket) {
        Map<String, Double> due = new HashMap<>();
        for (String slice : redis.zrange(keys.due(bucket), 0, -1)) {
            for (Tuple t : redis.zrangeWithScores(keys.due(bucket) + ":" + slice, 0, -1)) {
                due.put(t.getElement(), t.getScore());
            }
        }
        return due;
    }
}
