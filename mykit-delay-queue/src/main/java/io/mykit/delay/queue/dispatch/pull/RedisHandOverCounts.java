package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.queue.store.NodePipelines;
import io.mykit.delay.queue.store.RedisNodes;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link HandOverCounts} in one Redis hash, field = slot: one pipelined HINCRBY per slot when a node publishes its
 * hand-overs, one HGETALL (at most {@link #SLOTS} fields) per safety re-check.
 */
public final class RedisHandOverCounts implements HandOverCounts {
    private final RedisNodes redis;
    private final String key;

    /** {@code key}: the hash, e.g. {@code Keys.handOvers()}. */
    public RedisHandOverCounts(RedisNodes redis, String key) {
        this.redis = redis;
        this.key = key;
    }

    @Override
    public void count(Collection<String> topics) {
        Set<Integer> slots = new TreeSet<>();
        topics.forEach(topic -> slots.add(HandOverCounts.slotOf(topic)));
        try (NodePipelines<?> pipes = redis.pipelines()) {
            slots.forEach(slot -> pipes.on(key).hincrBy(key, Integer.toString(slot), 1));
            pipes.sync();
        }
    }

    @Override
    public Map<Integer, Long> read() {
        Map<Integer, Long> counts = new HashMap<>();
        redis.client().hgetAll(key).forEach((slot, count) -> counts.put(Integer.parseInt(slot), Long.parseLong(count)));
        return counts;
    }
}
