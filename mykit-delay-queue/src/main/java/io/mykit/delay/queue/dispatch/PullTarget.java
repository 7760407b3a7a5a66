package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The built-in HTTP pull queue: due jobs go to their topic's ready list; pullers reserve one for a ttr and
 * finish it, or the sweeper makes it due again when the ttr runs out. Long-polls wait on a per-topic monitor
 * that local hand-overs notify, and look again every {@code pollIntervalMs} for hand-overs on other nodes.
 */
public class PullTarget implements DeliveryTarget {
    public static final String NAME = "pull";

    private final DelayStore store;
    private final StateChangeWriter states;
    private final Clock clock;
    private final long pollIntervalMs;
    private final Map<String, Signal> signals = new ConcurrentHashMap<>();
    /** Buckets this node handed ready jobs of a topic to: tried first, one round trip each, instead of a full scan. */
    private final Map<String, Set<Integer>> hotBuckets = new ConcurrentHashMap<>();

    public PullTarget(DelayStore store, StateChangeWriter states, Clock clock, long pollIntervalMs) {
        this.store = store;
        this.states = states;
        this.clock = clock;
        this.pollIntervalMs = pollIntervalMs;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void deliver(int bucket, List<Job> jobs) {
        Map<String, List<String>> idsByTopic = new LinkedHashMap<>();
        jobs.forEach(job -> idsByTopic.computeIfAbsent(job.getTopic(), t -> new ArrayList<>()).add(job.getId()));
        long now = clock.millis();
        List<StateChange> changes = new ArrayList<>(jobs.size());
        idsByTopic.forEach((topic, ids) -> {
            store.toReady(bucket, topic, ids);
            hotBuckets.computeIfAbsent(topic, t -> ConcurrentHashMap.newKeySet()).add(bucket);
            ids.forEach(id -> changes.add(StateChange.of(id, JobStatus.Ready, now)));
            Signal signal = signals.get(topic);
            if (signal != null) {
                signal.fire();
            }
        });
        states.submitAll(changes);
    }

    /** Reserves up to {@code max} ready jobs of the topic for {@code ttrMs}, waiting up to {@code timeoutMs} for one. */
    public List<Job> reserve(String topic, int max, long ttrMs, long timeoutMs) throws InterruptedException {
        long end = clock.millis() + timeoutMs;
        Signal signal = signals.computeIfAbsent(topic, t -> new Signal());
        while (true) {
            // read before looking, so a hand-over between the look and the wait is not missed
            long seen = signal.generation();
            List<Job> jobs = reserveHotFirst(topic, clock.millis() + ttrMs, max);
            long left = end - clock.millis();
            if (!jobs.isEmpty() || left <= 0) {
                return jobs;
            }
            signal.awaitChange(seen, Math.min(left, pollIntervalMs));
        }
    }

    private List<Job> reserveHotFirst(String topic, long deadline, int max) {
        List<Job> reserved = new ArrayList<>();
        Set<Integer> hot = hotBuckets.get(topic);
        if (hot != null) {
            for (Integer bucket : hot) {
                List<Job> jobs = store.reserveIn(bucket, topic, deadline, max - reserved.size());
                reserved.addAll(jobs);
                if (reserved.size() == max) {
                    return reserved;
                }
                // fewer than asked: this bucket's list is empty now
                hot.remove(bucket);
            }
            if (!reserved.isEmpty()) {
                return reserved;
            }
        }
        // jobs made ready by a sweep, a restart or another node: look at every bucket
        return store.reserve(topic, deadline, max);
    }

    /** A counter that hand-overs bump and long-polls wait on. */
    private static final class Signal {
        private long generation;

        synchronized long generation() {
            return generation;
        }

        synchronized void fire() {
            generation++;
            notifyAll();
        }

        synchronized void awaitChange(long seen, long timeoutMs) throws InterruptedException {
            if (generation == seen) {
                wait(timeoutMs);
            }
        }
    }
}
