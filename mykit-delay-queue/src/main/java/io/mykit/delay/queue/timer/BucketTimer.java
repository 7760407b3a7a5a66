package io.mykit.delay.queue.timer;

import io.mykit.delay.queue.dispatch.Dispatcher;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.PumpResult;

import java.time.Clock;

/**
 * Moves due jobs of one bucket to in-flight and hands them to the dispatcher. Sleeps until the bucket's
 * earliest due time (capped by {@code maxIdleMs} for pushes made on other nodes); a local push with an
 * earlier due time wakes it. A full batch pumps again at once.
 */
public final class BucketTimer extends WakeableLoop {
    private final int bucket;
    private final DelayStore store;
    private final Dispatcher dispatcher;
    private final int batchSize;
    private final long maxIdleMs;
    private final long dispatchTimeoutMs;

    public BucketTimer(int bucket, DelayStore store, Dispatcher dispatcher, Clock clock,
                       int batchSize, long maxIdleMs, long dispatchTimeoutMs) {
        super(String.format("mykit-timer-b%02d", bucket), clock);
        this.bucket = bucket;
        this.store = store;
        this.dispatcher = dispatcher;
        this.batchSize = batchSize;
        this.maxIdleMs = maxIdleMs;
        this.dispatchTimeoutMs = dispatchTimeoutMs;
    }

    @Override
    protected long runOnce() {
        long now = clock.millis();
        PumpResult pumped = store.pumpDue(bucket, now, batchSize, now + dispatchTimeoutMs);
        if (!pumped.jobs().isEmpty()) {
            dispatcher.dispatch(bucket, pumped.jobs());
        }
        if (pumped.jobs().size() >= batchSize) {
            return now;
        }
        long idleCap = now + maxIdleMs;
        return pumped.nextDue() < 0 ? idleCap : Math.min(pumped.nextDue(), idleCap);
    }
}
