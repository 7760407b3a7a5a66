package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.metrics.QueueMetrics;
import io.mykit.delay.queue.store.PumpResult;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Routes each due job to its topic's delivery target. Every target gets its share even if another one throws (its jobs
 * stay in flight for the sweeper); the first error is thrown afterwards so the timer backs off.
 */
public class Dispatcher {
    private final RouteLookup routes;
    private final HandOverListener handedOver;
    private final ReadyOnPumpTarget onlyTarget;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    public Dispatcher(RouteLookup routes) {
        this(routes, HandOverListener.NONE);
    }

    /** {@code handedOver} sees each batch as it goes to its targets. */
    public Dispatcher(RouteLookup routes, HandOverListener handedOver) {
        this(routes, handedOver, null);
    }

    /**
     * {@code onlyTarget}: the pull queue, where every topic goes to it (no broker route); pumps then put due jobs in
     * their ready lists themselves ({@link #readyOnPump}), one Redis call per hand-over instead of two.
     */
    public Dispatcher(RouteLookup routes, HandOverListener handedOver, ReadyOnPumpTarget onlyTarget) {
        this.routes = routes;
        this.handedOver = handedOver;
        this.onlyTarget = onlyTarget;
    }

    /**
     * True when every topic goes to the pull queue: a pump may then use
     * {@link io.mykit.delay.queue.store.Delivery#pumpDueToReady}.
     */
    public boolean readyOnPump() {
        return onlyTarget != null;
    }

    /** The free credit of open streams, for a pump that reserves due jobs for them directly ({@link #readyOnPump}). */
    public PumpClaims claims(int max) {
        return onlyTarget == null ? PumpClaims.NONE : onlyTarget.claims(max);
    }

    /**
     * What {@link #dispatch} does after a pump that already put its jobs in their ready lists, or reserved them for the
     * streams of {@code claims}: those streams get theirs first.
     */
    public void dispatchReadied(int bucket, PumpResult pumped, PumpClaims claims) {
        // the streams first: their jobs are reserved already and wait for nothing else
        onlyTarget.reservedOnPump(claims, pumped.reserved());
        handedOver.handedOver(pumped.jobs());
        metrics.handedOver(onlyTarget.name(), pumped.jobs());
        if (pumped.reserved().isEmpty()) {
            onlyTarget.readied(bucket, pumped.jobs());
            return;
        }
        Set<Job> direct = Collections.newSetFromMap(new IdentityHashMap<>());
        pumped.reserved().forEach(each -> direct.add(each.job()));
        List<Job> readied =
                pumped.jobs().stream().filter(job -> !direct.contains(job)).toList();
        if (!readied.isEmpty()) {
            onlyTarget.readied(bucket, readied);
        }
    }

    /** Where hand-overs (and their lateness) are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    public void dispatch(int bucket, List<Job> jobs) {
        handedOver.handedOver(jobs);
        Map<DeliveryTarget, List<Job>> byTarget = jobs.stream()
                .collect(Collectors.groupingBy(
                        job -> routes.route(job.getTopic()), LinkedHashMap::new, Collectors.toList()));
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
