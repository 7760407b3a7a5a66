package io.mykit.delay.queue.timer;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.loop.WakeableLoop;
import io.mykit.delay.queue.store.Delivery;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Returns in-flight jobs whose deadline passed (a puller that never finished, a dispatcher that crashed) to their
 * bucket, due now, and journals them back to Delay: nothing handed over is lost. A pull job whose reservations used up
 * its tries, a broker job parked for its burial whose burial did not finish, or any job whose ttl ran out, is buried as
 * dead instead of going round forever.
 */
public final class InflightSweeper extends WakeableLoop {
    private static final Logger log = LoggerFactory.getLogger(InflightSweeper.class);
    private static final int LIMIT_PER_BUCKET = 1_000;

    private final Delivery store;
    private final StateChangeWriter states;
    private final DeliveryOutcomes outcomes;
    private final BucketWaker wakeBucket;
    private final long intervalMs;
    private final int defaultTries;
    private final OwnedBuckets ownedBuckets;

    /** Sweeps {@code ownedBuckets} only: a bucket's in-flight jobs are its owner's to give back. */
    public InflightSweeper(
            Delivery store,
            StateChangeWriter states,
            DeliveryOutcomes outcomes,
            BucketWaker wakeBucket,
            Clock clock,
            long intervalMs,
            int defaultTries,
            OwnedBuckets ownedBuckets) {
        super("mykit-sweeper", clock);
        this.store = store;
        this.states = states;
        this.outcomes = outcomes;
        this.wakeBucket = wakeBucket;
        this.intervalMs = intervalMs;
        this.defaultTries = defaultTries;
        this.ownedBuckets = ownedBuckets;
    }

    @Override
    protected long runOnce() {
        long now = clock.millis();
        Map<Integer, Delivery.Swept> swept =
                store.sweep(ownedBuckets.owned(), LIMIT_PER_BUCKET, defaultTries, DeliveryOutcomes.BURIAL_WINDOW_MS);
        List<StateChange> changes = new ArrayList<>();
        swept.values().forEach(s -> s.returned().forEach(id -> changes.add(StateChange.of(id, JobStatus.Delay, now))));
        // journal order must be real order: the Delay goes in before a woken timer can make the job Ready again
        states.submitAll(changes);
        swept.forEach((bucket, s) -> {
            if (!s.returned().isEmpty()) {
                wakeBucket.wake(bucket, now);
            }
        });
        swept.forEach((bucket, s) -> {
            if (!s.spent().isEmpty()) {
                s.spent()
                        .forEach(job -> log.warn(
                                "job {} of topic {} is dead, out of tries or ttl ({} tries used of {}, ttl {} ms)",
                                job.getId(),
                                job.getTopic(),
                                job.getAttempts(),
                                job.getTries(),
                                job.getTtl()));
                outcomes.bury(bucket, s.spent());
            }
        });
        boolean full = swept.values().stream()
                .anyMatch(s -> s.returned().size() + s.spent().size() >= LIMIT_PER_BUCKET);
        return full ? now : now + intervalMs;
    }
}
