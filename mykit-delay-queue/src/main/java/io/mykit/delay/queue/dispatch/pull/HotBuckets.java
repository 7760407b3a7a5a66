package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.Delivery;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Buckets this node handed ready jobs of a topic to: a reservation tries them first, one round trip each, and scans
 * every bucket only when they gave fewer than asked. A bucket leaves once a reservation there finds or leaves its list
 * empty, a topic once unused for {@link #IDLE_MS} (nobody pulls it).
 */
final class HotBuckets {
    private static final Logger log = LoggerFactory.getLogger(HotBuckets.class);

    /** A topic's hot buckets are forgotten after this long without a hand-over or a look there. */
    static final long IDLE_MS = 60_000;

    private final Delivery store;
    private final Clock clock;
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();

    HotBuckets(Delivery store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Jobs of {@code topic} went to the ready list of {@code bucket}. */
    void add(String topic, int bucket, long now) {
        topics.computeIfAbsent(topic, t -> new Topic()).add(bucket, now);
    }

    /**
     * Reserves up to {@code max} ready jobs of the topic for {@code ttrMs}: its hot buckets first, then, when they gave
     * fewer, every bucket. A caller takes fewer than asked as "nothing more is ready" and waits for a wake-up, so the
     * hot buckets alone cannot answer short: a job given back or made ready by another node or an earlier run waits in
     * a bucket this node never handed over to, and no hand-over here would wake anyone for it.
     */
    List<Job> reserve(String topic, long ttrMs, int max) {
        List<Job> reserved = new ArrayList<>();
        Topic hot = topics.get(topic);
        try {
            if (hot != null) {
                hot.usedAt = clock.millis();
                for (Integer bucket : hot.buckets) {
                    Delivery.Reservation taken = store.reserveFrom(bucket, topic, ttrMs, max - reserved.size());
                    reserved.addAll(taken.jobs());
                    if (taken.drained() || reserved.size() < max) {
                        // its list is empty now: the next look does not spend a round trip on it
                        hot.buckets.remove(bucket);
                    }
                    if (reserved.size() == max) {
                        return reserved;
                    }
                }
                // a topic nobody delivers to any more keeps no entry (a hint only: a lost one costs one full scan)
                topics.computeIfPresent(topic, (t, left) -> left.buckets.isEmpty() ? null : left);
            }
            reserved.addAll(store.reserve(topic, ttrMs, max - reserved.size()));
        } catch (RuntimeException e) {
            if (reserved.isEmpty()) {
                throw e;
            }
            // the jobs reserved before the failure are the caller's: left unanswered they would wait out their ttr
            log.debug("look at topic {} ended early with {} jobs: {}", topic, reserved.size(), e.toString());
        }
        return reserved;
    }

    /** Drops the topics nobody handed over to or looked at for {@link #IDLE_MS}. */
    void forgetIdle() {
        long idleSince = clock.millis() - IDLE_MS;
        topics.values().removeIf(hot -> hot.usedAt < idleSince);
    }

    /** Topics whose hot buckets are remembered. */
    int topics() {
        return topics.size();
    }

    /** The buckets of one topic a look tries first, and when they were last used. */
    private static final class Topic {
        final Set<Integer> buckets = ConcurrentHashMap.newKeySet();
        volatile long usedAt;

        void add(int bucket, long now) {
            buckets.add(bucket);
            usedAt = now;
        }
    }
}
