package io.mykit.delay.core;

import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.cluster.WakeBus;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.timer.TimerGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Delivery of due jobs: the bucket timers this node owns, the sweeper, the repairer, the Redis-loss watch and the
 * cross-node wake-ups. It stops first, before the web server drains, so a stopping gateway hands nothing new over and
 * lets its buckets go to another node at once; waiting long-polls answer at once instead of holding the drain. It
 * starts after the web server, unless the start-up warm-up ({@link StartupWarmup}) starts it earlier so its own jobs
 * fall due.
 */
public class DeliveryLifecycle implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(DeliveryLifecycle.class);
    private final TimerGroup timers;
    private final RedisLossWatch lossWatch;
    private final BucketOwnership ownership;
    private final WakeBus wakes;
    private final PullTarget pull;
    private final boolean timersEnabled;
    private volatile boolean running;

    /** {@code wakes} may be null: a standalone node has nobody to wake. */
    public DeliveryLifecycle(
            TimerGroup timers,
            RedisLossWatch lossWatch,
            BucketOwnership ownership,
            WakeBus wakes,
            PullTarget pull,
            boolean timersEnabled) {
        this.timers = timers;
        this.lossWatch = lossWatch;
        this.ownership = ownership;
        this.wakes = wakes;
        this.pull = pull;
        this.timersEnabled = timersEnabled;
    }

    /** Spring's call, or {@link StartupWarmup}'s earlier one (then Spring sees it running and skips it). */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        if (wakes != null) {
            wakes.start();
        }
        timers.gate(ownership::isActive);
        // with timers off the node owns no bucket, but in ZooKeeper modes it stays a member restores ask about its ends
        ownership.start();
        if (timersEnabled) {
            timers.startHelpers();
        }
        lossWatch.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        log.info("stopping delivery: no job is handed over from here on; in ZooKeeper modes the buckets go to"
                + " the others");
        ownership.stop();
        timers.stop();
        lossWatch.stop();
        if (wakes != null) {
            wakes.close();
        }
        pull.stopWaiting();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }
}
