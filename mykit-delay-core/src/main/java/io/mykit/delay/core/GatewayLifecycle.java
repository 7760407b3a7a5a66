package io.mykit.delay.core;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.service.PushPipeline;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.TimerGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Starts the journal writer, push writers and timers in dependency order, and stops them in reverse. */
public class GatewayLifecycle implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(GatewayLifecycle.class);

    private final RedisDelayStore store;
    private final StateChangeWriter states;
    private final PushPipeline pushes;
    private final TimerGroup timers;
    private final RedisLossWatch lossWatch;
    private final boolean timersEnabled;
    private volatile boolean running;

    /** {@code lossWatch} may be null (auto-recovery off). */
    public GatewayLifecycle(RedisDelayStore store, StateChangeWriter states, PushPipeline pushes, TimerGroup timers,
                            RedisLossWatch lossWatch, boolean timersEnabled) {
        this.store = store;
        this.states = states;
        this.pushes = pushes;
        this.timers = timers;
        this.lossWatch = lossWatch;
        this.timersEnabled = timersEnabled;
    }

    @Override
    public void start() {
        try {
            store.loadScripts();
        } catch (StoreUnavailableException e) {
            // the gateway still starts: pushes answer 503 and the timers retry until Redis answers
            log.warn("Redis not reachable at start-up: {}", e.getMessage());
        }
        states.start();
        pushes.start();
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
        pushes.close();
        states.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
