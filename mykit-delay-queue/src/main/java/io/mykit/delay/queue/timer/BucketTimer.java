package io.mykit.delay.queue.timer;

import io.mykit.delay.queue.dispatch.Dispatcher;
import io.mykit.delay.queue.dispatch.PumpClaims;
import io.mykit.delay.queue.loop.WakeableLoop;
import io.mykit.delay.queue.store.Delivery;
import io.mykit.delay.queue.store.FencedException;
import io.mykit.delay.queue.store.PumpResult;
import java.time.Clock;
import java.util.function.IntPredicate;

/**
 * Moves due jobs of one bucket to in-flight and hands them to the dispatcher (where every topic goes to the pull queue,
 * straight to their ready lists in the same call, or reserved for streams with free credit:
 * {@link Dispatcher#readyOnPump}). Sleeps until the bucket's earliest due time (capped by {@code maxIdleMs} for pushes
 * made on other nodes); a local push with an earlier due time wakes it. A full batch pumps again at once.
 */
public final class BucketTimer extends WakeableLoop {
    private final int bucket;
    private final Delivery store;
    private final Dispatcher dispatcher;
    private final int batchSize;
    private final long maxIdleMs;
    private final long dispatchTimeoutMs;
    private volatile IntPredicate mayPump = bucket -> true;

    public BucketTimer(
            int bucket,
            Delivery store,
            Dispatcher dispatcher,
            Clock clock,
            int batchSize,
            long maxIdleMs,
            long dispatchTimeoutMs) {
        super(String.format("mykit-timer-b%02d", bucket), clock);
        this.bucket = bucket;
        this.store = store;
        this.dispatcher = dispatcher;
        this.batchSize = batchSize;
        this.maxIdleMs = maxIdleMs;
        this.dispatchTimeoutMs = dispatchTimeoutMs;
    }

    /** Asked before every pump: a node that lost its ZooKeeper link stops at once, before its timer is stopped. */
    public void gate(IntPredicate mayPump) {
        this.mayPump = mayPump;
    }

    @Override
    protected long runOnce() {
        long now = clock.millis();
        if (!mayPump.test(bucket)) {
            return now + maxIdleMs;
        }
        PumpResult pumped;
        try {
            if (dispatcher.readyOnPump()) {
                PumpClaims claims = dispatcher.claims(batchSize);
                try {
                    pumped = store.pumpDueToReady(bucket, now, batchSize, claims.forStore());
                    if (!pumped.jobs().isEmpty()) {
                        dispatcher.dispatchReadied(bucket, pumped, claims);
                    }
                } finally {
                    // a failed pump reserved nothing the streams know of: their promised credit is free again
                    claims.release();
                }
            } else {
                pumped = store.pumpDue(bucket, now, batchSize, dispatchTimeoutMs);
                if (!pumped.jobs().isEmpty()) {
                    dispatcher.dispatch(bucket, pumped.jobs());
                }
            }
        } catch (FencedException e) {
            // a newer term owns this bucket; the ownership manager was told and stops this timer
            return now + maxIdleMs;
        }
        if (pumped.jobs().size() >= batchSize) {
            return now;
        }
        long idleCap = now + maxIdleMs;
        return pumped.nextDue() < 0 ? idleCap : Math.min(pumped.nextDue(), idleCap);
    }

    /** Open to this package's tests, which hold a pass of a real gateway's timer. */
    @Override
    protected void beforeNextPass(Runnable hook) {
        super.beforeNextPass(hook);
    }
}
