package io.mykit.delay.core;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.DispatchProperties;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.DeliveryTarget;
import io.mykit.delay.queue.dispatch.LogTarget;
import io.mykit.delay.queue.dispatch.TargetRouter;
import io.mykit.delay.queue.dispatch.broker.ActiveMqTarget;
import io.mykit.delay.queue.dispatch.broker.BrokerTarget;
import io.mykit.delay.queue.dispatch.broker.RocketMqTarget;
import io.mykit.delay.queue.dispatch.broker.SenderSettings;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds only the delivery targets the routes use (a broker no route names is never connected) and closes them within
 * the dispatch stop wait plus {@link BrokerTarget#CLIENT_CLOSE_WAIT_MS}, whatever a broker does.
 */
public class DeliveryTargets implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DeliveryTargets.class);
    private final Map<String, DeliveryTarget> targets = new LinkedHashMap<>();
    private final TargetRouter router;
    private final long stopWaitMs;
    private final AtomicBoolean closed = new AtomicBoolean();

    public DeliveryTargets(DelayProperties properties, PullTarget pull, DeliveryOutcomes outcomes) {
        DispatchProperties dispatch = properties.getDispatch();
        this.stopWaitMs = dispatch.getStopWait().toMillis();
        SenderSettings senders = EngineSettings.senders(dispatch);
        targets.put(PullTarget.NAME, pull);
        for (String name : dispatch.usedTargets()) {
            switch (name) {
                case PullTarget.NAME -> {}
                case LogTarget.NAME -> targets.put(name, new LogTarget(outcomes));
                case ActiveMqTarget.NAME ->
                    targets.put(
                            name,
                            new ActiveMqTarget(EngineSettings.activeMq(properties.getActivemq()), senders, outcomes));
                case RocketMqTarget.NAME ->
                    targets.put(
                            name,
                            new RocketMqTarget(EngineSettings.rocketMq(properties.getRocketmq()), senders, outcomes));
                default -> throw new IllegalStateException("mykit.delay.dispatch: unknown target '" + name + "'");
            }
        }
        Map<String, String> routes = new LinkedHashMap<>(dispatch.getRoutes());
        // the start-up warm-up's own jobs never reach a broker, whatever the default or a pattern says
        routes.put(StartupWarmup.TOPIC, PullTarget.NAME);
        this.router = new TargetRouter(dispatch.getDefaultTarget(), routes, targets);
    }

    public TargetRouter router() {
        return router;
    }

    /** True when no route names a target but the pull queue: every topic's due jobs go to its ready list. */
    public boolean pullOnly() {
        return targets.keySet().equals(java.util.Set.of(PullTarget.NAME));
    }

    public DeliveryTarget target(String name) {
        return targets.get(name);
    }

    /** Longest {@link #close()} takes. */
    public long closeBoundMs() {
        return stopWaitMs + BrokerTarget.CLIENT_CLOSE_WAIT_MS;
    }

    /**
     * Halts every broker target first, so their stop waits run side by side, then closes each target on a thread of its
     * own and waits for them at most {@link #closeBoundMs()}; a close still running then is left behind (its jobs stay
     * in flight in Redis). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long deadline = System.nanoTime() + closeBoundMs() * 1_000_000;
        targets.values().forEach(target -> {
            if (target instanceof BrokerTarget broker) {
                broker.halt();
            }
        });
        Map<String, Thread> closing = new LinkedHashMap<>();
        targets.forEach((name, target) -> {
            if (target instanceof AutoCloseable closeable) {
                Thread thread = new Thread(() -> closeLogged(name, closeable), "mykit-close-" + name);
                thread.setDaemon(true);
                thread.start();
                closing.put(name, thread);
            }
        });
        closing.forEach((name, thread) -> {
            try {
                thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                log.warn(
                        "delivery target {} did not close within {} ms; the stop goes on without it (the jobs it"
                                + " holds stay in flight and are handed over again)",
                        name,
                        closeBoundMs());
            }
        });
    }

    private static void closeLogged(String name, AutoCloseable target) {
        try {
            target.close();
        } catch (Exception e) {
            log.warn("closing delivery target {} failed: {}", name, e.toString());
        }
    }
}
