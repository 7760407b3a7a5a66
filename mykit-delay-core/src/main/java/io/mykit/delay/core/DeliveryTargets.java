package io.mykit.delay.core;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.DeliveryTarget;
import io.mykit.delay.queue.dispatch.LogTarget;
import io.mykit.delay.queue.dispatch.PullTarget;
import io.mykit.delay.queue.dispatch.TargetRouter;
import io.mykit.delay.queue.dispatch.broker.ActiveMqTarget;
import io.mykit.delay.queue.dispatch.broker.RocketMqTarget;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** Builds only the delivery targets the routes use (a broker no route names is never connected) and closes them. */
public class DeliveryTargets implements AutoCloseable {
    private final Map<String, DeliveryTarget> targets = new LinkedHashMap<>();
    private final TargetRouter router;

    public DeliveryTargets(DelayProperties properties, PullTarget pull, DeliveryOutcomes outcomes) {
        DelayProperties.Dispatch dispatch = properties.getDispatch();
        Set<String> used = new LinkedHashSet<>();
        used.add(dispatch.getDefaultTarget());
        used.addAll(dispatch.getRoutes().values());
        targets.put(PullTarget.NAME, pull);
        for (String name : used) {
            switch (name) {
                case PullTarget.NAME -> { }
                case LogTarget.NAME -> targets.put(name, new LogTarget(outcomes));
                case ActiveMqTarget.NAME -> targets.put(name,
                        new ActiveMqTarget(properties.getActivemq(), dispatch, outcomes));
                case RocketMqTarget.NAME -> targets.put(name,
                        new RocketMqTarget(properties.getRocketmq(), dispatch, outcomes));
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

    @Override
    public void close() {
        for (DeliveryTarget target : targets.values()) {
            if (target instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    org.slf4j.LoggerFactory.getLogger(DeliveryTargets.class)
                            .warn("closing delivery target {} failed: {}", target.name(), e.toString());
                }
            }
        }
    }
}
