package io.mykit.delay.core;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.service.PushPipeline;
import io.mykit.delay.queue.store.RedisDelayStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The engine's writers: the journal state writer, the push writers and the broker senders. Its phase is below the web
 * server's, so it starts before the first request and stops after the web server drained: the finishes and deliveries
 * of a graceful stop are journaled. Stop order: broker senders finish within the dispatch stop wait (a sender still
 * inside a broker client then is left behind, its jobs in flight), push writers drain, the journal writer flushes last;
 * no step waits on a broker beyond {@link DeliveryTargets#closeBoundMs()}, so the writers are flushed whatever a broker
 * does. Delivery stops earlier, in {@link DeliveryLifecycle}. On a first start it also writes the Redis epoch
 * ({@link RedisLossWatch#markFirstStart}) before anything can be pushed.
 */
public class GatewayLifecycle implements SmartLifecycle {
    /** Below the web server's graceful-shutdown (DEFAULT_PHASE - 1024) and start/stop (DEFAULT_PHASE - 2048) phases. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Logger log = LoggerFactory.getLogger(GatewayLifecycle.class);

    private final RedisDelayStore store;
    private final StateChangeWriter states;
    private final PushPipeline pushes;
    private final DeliveryTargets targets;
    private final RedisLossWatch lossWatch;
    private volatile boolean running;

    public GatewayLifecycle(
            RedisDelayStore store,
            StateChangeWriter states,
            PushPipeline pushes,
            DeliveryTargets targets,
            RedisLossWatch lossWatch) {
        this.store = store;
        this.states = states;
        this.pushes = pushes;
        this.targets = targets;
        this.lossWatch = lossWatch;
    }

    @Override
    public void start() {
        try {
            store.loadScripts();
            // before the warm-up and the port: the first pushes must not look like data Redis lost
            lossWatch.markFirstStart();
        } catch (StoreUnavailableException e) {
            // the gateway still starts: the repairer stores what pushes journal and the timers retry until Redis
            // answers
            log.warn("Redis not reachable at start-up: {}", e.getMessage());
        } catch (RuntimeException e) {
            log.warn("could not mark a first start in Redis (the Redis-loss watch will): {}", e.toString());
        }
        states.start();
        pushes.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        targets.close();
        pushes.close();
        states.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
