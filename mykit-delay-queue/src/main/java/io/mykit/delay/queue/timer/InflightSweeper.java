package io.mykit.delay.queue.timer;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Returns in-flight jobs whose deadline passed (a puller that never finished, a dispatcher that crashed) to
 * their bucket, due now, and journals them back to Delay: nothing handed over is lost.
 */
public final class InflightSweeper extends WakeableLoop {
    private static final int LIMIT_PER_BUCKET = 1_000;

    private final DelayStore store;
    private final StateChangeWriter states;
    private final BiConsumer<Integer, Long> wakeBucket;
    private final long intervalMs;

    public InflightSweeper(DelayStore store, StateChangeWriter states, BiConsumer<Integer, Long> wakeBucket,
                           Clock clock, long intervalMs) {
        super("mykit-sweeper", clock);
        this.store = store;
        this.states = states;
        this.wakeBucket = wakeBucket;
        this.intervalMs = intervalMs;
    }

    @Override
    protected long runOnce() {
        long now = clock.millis();
        Map<Integer, List<String>> returned = store.sweep(now, LIMIT_PER_BUCKET);
        List<StateChange> changes = new ArrayList<>();
        returned.values().forEach(ids -> ids.forEach(id -> changes.add(StateChange.of(id, JobStatus.Delay, now))));
        // journal order must be real order: the Delay goes in before a woken timer can make the job Ready again
        states.submitAll(changes);
        returned.keySet().forEach(bucket -> wakeBucket.accept(bucket, now));
        boolean full = returned.values().stream().anyMatch(ids -> ids.size() >= LIMIT_PER_BUCKET);
        return full ? now : now + intervalMs;
    }
}
