package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.metrics.QueueMetrics;
import io.mykit.delay.queue.store.DelayStore;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * The built-in HTTP pull queue: due jobs go to their topic's ready list; pullers reserve one for a ttr and
 * finish it, or the sweeper makes it due again when the ttr runs out. Long-polls wait per topic until a local
 * hand-over wakes them, and look again every {@code pollIntervalMs} for hand-overs on other nodes.
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
    private volatile boolean stopped;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;
    private volatile BiConsumer<String, Integer> handedOver = (topic, jobs) -> { };

    public PullTarget(DelayStore store, StateChangeWriter states, Clock clock, long pollIntervalMs) {
        this.store = store;
        this.states = states;
        this.clock = clock;
        this.pollIntervalMs = pollIntervalMs;
    }

    /** Where deliveries to ready lists are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** Told of every hand-over to a topic, so long-polls waiting on other nodes can be woken. */
    public void onHandedOver(BiConsumer<String, Integer> listener) {
        this.handedOver = listener;
    }

    /** Jobs of {@code topic} became ready on another node: wake as many local long-polls as they need. */
    public void wakeTopic(String topic, int jobs) {
        Signal signal = signals.get(topic);
        if (signal != null) {
            signal.fire(jobs);
        }
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
            wakeTopic(topic, ids.size());
            handedOver.accept(topic, ids.size());
        });
        states.submitAll(changes);
        // for a pull topic, delivered means in its ready list: the puller's finish is the consumer's business
        jobs.forEach(job -> metrics.delivered(NAME, job));
    }

    /** Reserves up to {@code max} ready jobs of the topic for {@code ttrMs}, waiting up to {@code timeoutMs} for one. */
    public List<Job> reserve(String topic, int max, long ttrMs, long timeoutMs) throws InterruptedException {
        long end = clock.millis() + timeoutMs;
        Signal signal = enter(topic);
        try {
            while (true) {
                // read before looking, so a hand-over between the look and the wait is not missed
                long seen = signal.generation();
                List<Job> jobs = reserveHotFirst(topic, ttrMs, max);
                long left = end - clock.millis();
                if (!jobs.isEmpty() || left <= 0 || stopped) {
                    return jobs;
                }
                signal.awaitChange(seen, Math.min(left, pollIntervalMs), max);
            }
        } finally {
            leave(topic);
        }
    }

    /** The topic's signal, counted as used by this caller; a signal lives only while someone waits on its topic. */
    private Signal enter(String topic) {
        return signals.compute(topic, (t, signal) -> {
            Signal used = signal == null ? new Signal() : signal;
            used.users++;
            return used;
        });
    }

    private void leave(String topic) {
        signals.computeIfPresent(topic, (t, signal) -> --signal.users == 0 ? null : signal);
    }

    /** Topics with a long-poll waiting right now. */
    public int waitingTopics() {
        return signals.size();
    }

    /** The gateway is stopping: long-polls answer with what they have now instead of holding the web server's drain. */
    public void stopWaiting() {
        stopped = true;
        signals.values().forEach(Signal::wakeAll);
    }

    private List<Job> reserveHotFirst(String topic, long ttrMs, int max) {
        List<Job> reserved = new ArrayList<>();
        Set<Integer> hot = hotBuckets.get(topic);
        if (hot != null) {
            for (Integer bucket : hot) {
                List<Job> jobs = store.reserveIn(bucket, topic, ttrMs, max - reserved.size());
                reserved.addAll(jobs);
                if (reserved.size() == max) {
                    return reserved;
                }
                // fewer than asked: this bucket's list is empty now
                hot.remove(bucket);
            }
            // a topic nobody delivers to any more keeps no entry (a hint only: a lost one costs one full scan)
            hotBuckets.remove(topic, Set.of());
            if (!reserved.isEmpty()) {
                return reserved;
            }
        }
        // jobs made ready by a sweep, a restart or another node: look at every bucket
        return store.reserve(topic, ttrMs, max);
    }

    /**
     * Where long-polls of one topic wait. A hand-over wakes waiters oldest first, only as many as its jobs need
     * (each asked for up to {@code wants}); waking all of them sent every puller to Redis for each hand-over and
     * cost more gateway and Redis CPU than the deliveries in the bench. A waiter not woken looks again after its
     * poll interval, which also covers hand-overs made on other nodes.
     */
    private static final class Signal {
        /** Long-polls using this signal; changed only inside the signal map's compute calls. */
        private int users;
        private long generation;
        private final Deque<Waiter> waiters = new ArrayDeque<>();

        private static final class Waiter {
            final Thread thread = Thread.currentThread();
            final int wants;
            volatile boolean woken;

            Waiter(int wants) {
                this.wants = wants;
            }
        }

        synchronized long generation() {
            return generation;
        }

        synchronized void fire(int jobs) {
            generation++;
            int left = jobs;
            while (left > 0 && !waiters.isEmpty()) {
                Waiter waiter = waiters.pollFirst();
                waiter.woken = true;
                LockSupport.unpark(waiter.thread);
                left -= waiter.wants;
            }
        }

        synchronized void wakeAll() {
            generation++;
            waiters.forEach(waiter -> {
                waiter.woken = true;
                LockSupport.unpark(waiter.thread);
            });
            waiters.clear();
        }

        /** Waits up to {@code timeoutMs} for a hand-over, unless one came since {@code seen} was read. */
        void awaitChange(long seen, long timeoutMs, int wants) throws InterruptedException {
            Waiter waiter = new Waiter(wants);
            synchronized (this) {
                if (generation != seen) {
                    return;
                }
                waiters.addLast(waiter);
            }
            try {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
                long left;
                while (!waiter.woken && (left = deadline - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(this, left);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            } finally {
                synchronized (this) {
                    waiters.remove(waiter);
                }
            }
        }
    }
}
