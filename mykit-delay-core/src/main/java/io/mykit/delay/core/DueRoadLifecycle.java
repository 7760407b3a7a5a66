package io.mykit.delay.core;

import io.mykit.delay.queue.dispatch.PullTarget;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.timer.TimerGroup;
import org.springframework.context.SmartLifecycle;

/**
 * The due road: bucket timers, sweeper, repairer and the Redis-loss watch. It stops first, before the web server
 * drains, so a stopping gateway hands nothing new over; waiting long-polls answer at once instead of holding the drain.
 */
public class DueRoadLifecycle implements SmartLifecycle {
    private final TimerGroup timers;
    private final RedisLossWatch lossWatch;
    private final PullTarget pull;
    private final boolean timersEnabled;
    private volatile boolean running;

    /** {@code lossWatch} may be null (auto-recovery off). */
    public DueRoadLifecycle(TimerGroup timers, RedisLossWatch lossWatch, PullTarget pull, boolean timersEnabled) {
        this.timers = timers;
        this.lossWatch = lossWatch;
        this.pull = pull;
        this.timersEnabled = timersEnabled;
    }

    @Override
    public void start() {
        if (lossWatch != null) {
            lossWatch.start();
        }
        if (timersEnabled) {
            timers.start();
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        timers.stop();
        if (lossWatch != null) {
            lossWatch.stop();
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
