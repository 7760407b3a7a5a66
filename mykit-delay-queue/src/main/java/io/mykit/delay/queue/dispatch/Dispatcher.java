package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.metrics.QueueMetrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Routes each due job to its topic's delivery target. Every target gets its share even if another one throws (its
 * jobs stay in flight for the sweeper); the first error is thrown afterwards so the timer backs off.
 */
public class Dispatcher {
    private final Function<String, DeliveryTarget> routeOf;
    private final Consumer<List<Job>> handedOver;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    public Dispatcher(Function<String, DeliveryTarget> routeOf) {
        this(routeOf, jobs -> { });
    }

    /** {@code handedOver} sees each batch as it goes to its targets (the stats' lateness recorder). */
    public Dispatcher(Function<String, DeliveryTarget> routeOf, Consumer<List<Job>> handedOver) {
        this.routeOf = routeOf;
        this.handedOver = handedOver;
    }

    /** Where hand-overs (and their lateness) are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    public void dispatch(int bucket, List<Job> jobs) {
        handedOver.accept(jobs);
        Map<DeliveryTarget, List<Job>> byTarget = jobs.stream().collect(
                Collectors.groupingBy(job -> routeOf.apply(job.getTopic()), LinkedHashMap::new, Collectors.toList()));
        RuntimeException first = null;
        for (Map.Entry<DeliveryTarget, List<Job>> entry : byTarget.entrySet()) {
            try {
                metrics.handedOver(entry.getKey().name(), entry.getValue());
                entry.getKey().deliver(bucket, entry.getValue());
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
