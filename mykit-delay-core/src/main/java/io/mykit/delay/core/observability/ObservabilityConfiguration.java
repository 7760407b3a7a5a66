package io.mykit.delay.core.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.core.DeliveryTargets;
import io.mykit.delay.core.NodeIdentity;
import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.DeliveryTarget;
import io.mykit.delay.queue.dispatch.Dispatcher;
import io.mykit.delay.queue.dispatch.broker.BrokerTarget;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.LoopHeartbeat;
import io.mykit.delay.queue.loop.WakeableLoop;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RestoreReport;
import io.mykit.delay.queue.service.PushPipeline;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.RedisNodes;
import io.mykit.delay.queue.store.StoreCounts;
import io.mykit.delay.queue.timer.TimerGroup;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.health.HealthContributorRegistry;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.metrics.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Health indicators, /actuator/info and the metrics, wired onto the engine without changing its construction: the
 * engine's classes get a {@link DelayMetrics} through their {@code metrics(...)} setters once every bean exists.
 */
@Configuration(proxyBeanMethods = false)
public class ObservabilityConfiguration {
    /** Longest a health request waits for a store or broker to answer. */
    static final long PROBE_TIMEOUT_MS = 3_000;

    @Bean
    public DelayMetrics delayMetrics(MeterRegistry registry, DelayProperties properties, Clock clock) {
        return new DelayMetrics(registry, properties.getMetrics().getTopics(), clock);
    }

    @Bean
    public StoreCounts storeCounts(RedisNodes redis, RedisDelayStore store) {
        return new StoreCounts(redis, store.keys());
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    public StoreSampler storeSampler(StoreCounts counts, DelayProperties properties, MeterRegistry registry) {
        return new StoreSampler(
                counts,
                properties.getBuckets(),
                properties.getMetrics().getSampleInterval().toMillis(),
                registry);
    }

    /** The gateway's own Redis (Jedis), not Spring Data's: the component is named "redis". */
    @Bean
    public HealthIndicator redisHealthIndicator(StoreCounts counts) {
        return new ProbeHealthIndicator("redis", timeoutMs -> counts.ping(), PROBE_TIMEOUT_MS);
    }

    @Bean
    public HealthIndicator restoreHealthIndicator(RecoveryService recovery) {
        return new RestoreHealthIndicator(recovery);
    }

    /**
     * The engine's loops (timers, sweeper, repairer, journal chores, Redis loss watch) and its writer and sender
     * threads (journal writers, broker senders): "loops" in health.
     */
    @Bean
    public HealthIndicator loopsHealthIndicator(
            ObjectProvider<TimerGroup> timers,
            ObjectProvider<WakeableLoop> loops,
            ObjectProvider<PushPipeline> pushes,
            ObjectProvider<StateChangeWriter> states,
            ObjectProvider<DeliveryTargets> targets,
            Clock clock,
            DelayProperties properties) {
        Supplier<List<LoopHeartbeat>> all = () -> {
            Set<WakeableLoop> found = Collections.newSetFromMap(new IdentityHashMap<>());
            timers.ifAvailable(group -> found.addAll(group.loops()));
            loops.forEach(found::add);
            List<LoopHeartbeat> beats = new ArrayList<>();
            found.forEach(loop -> beats.add(loop.heartbeat()));
            pushes.ifAvailable(pipeline -> beats.addAll(pipeline.heartbeats()));
            states.ifAvailable(writer -> beats.add(writer.heartbeat()));
            targets.ifAvailable(routes -> {
                for (String name : new String[] {"activemq", "rocketmq"}) {
                    if (routes.target(name) instanceof BrokerTarget broker) {
                        beats.addAll(broker.heartbeats());
                    }
                }
            });
            return beats;
        };
        return new LoopsHealthIndicator(
                all, clock, properties.getTimer().getStallAfter().toMillis());
    }

    /** In place of Spring Boot's: the per-tenant series in the admin's scrape only. */
    @Bean
    public PrometheusScrapeEndpoint adminScrapeEndpoint(PrometheusRegistry registry, PrometheusConfig config) {
        return new AdminScrapeEndpoint(registry, config.prometheusProperties());
    }

    @Bean
    public GatewayInfoContributor gatewayInfoContributor(
            DelayProperties properties, Environment environment, NodeIdentity node) {
        return new GatewayInfoContributor(properties, environment, node);
    }

    /**
     * Once every bean exists: metrics into the engine, one health indicator per broker target routes use, ZooKeeper's
     * in the ZooKeeper modes, and the gauges read from memory (journal backlogs, restore progress, ownership).
     */
    @Bean
    public SmartInitializingSingleton observabilityWiring(
            DelayMetrics metrics,
            DeliveryTargets targets,
            PushPipeline pushes,
            StateChangeWriter states,
            Dispatcher dispatcher,
            DeliveryOutcomes outcomes,
            PullTarget pull,
            Journal journal,
            RecoveryService recovery,
            BucketOwnership ownership,
            DelayProperties properties,
            HealthContributorRegistry health,
            MeterRegistry registry) {
        return () -> {
            metrics.routeOf(topic -> targets.router().route(topic).name());
            pushes.metrics(metrics);
            states.metrics(metrics);
            dispatcher.metrics(metrics);
            outcomes.metrics(metrics);
            pull.metrics(metrics);
            journal.metrics(metrics);
            for (String name : new String[] {"activemq", "rocketmq"}) {
                DeliveryTarget target = targets.target(name);
                if (target instanceof BrokerTarget broker) {
                    health.registerContributor(name, new ProbeHealthIndicator(name, broker::probe, PROBE_TIMEOUT_MS));
                }
            }
            gauge(
                    registry,
                    "mykit.delay.journal.backlog",
                    "push",
                    pushes,
                    PushPipeline::backlog,
                    "push calls waiting for a journal writer");
            gauge(
                    registry,
                    "mykit.delay.journal.backlog",
                    "state",
                    states,
                    StateChangeWriter::backlog,
                    "state changes waiting for the journal state writer");
            restoreGauges(registry, recovery);
            if (properties.getMode() != DelayProperties.Mode.STANDALONE) {
                health.registerContributor("zookeeper", new ZooKeeperHealthIndicator(ownership));
                Gauge.builder(
                                "mykit.delay.buckets.owned",
                                ownership,
                                o -> o.activeBuckets().size())
                        .description("buckets this node pumps now")
                        .register(registry);
                Gauge.builder("mykit.delay.leader", ownership, o -> o.runsChores() ? 1 : 0)
                        .description("1 on the node that runs the once-per-cluster chores (the leader in master-slave)")
                        .register(registry);
            }
        };
    }

    private static <T> void gauge(
            MeterRegistry registry,
            String name,
            String writer,
            T source,
            ToDoubleFunction<T> value,
            String description) {
        Gauge.builder(name, source, value)
                .description(description)
                .tag("writer", writer)
                .register(registry);
    }

    private static void restoreGauges(MeterRegistry registry, RecoveryService recovery) {
        Gauge.builder("mykit.delay.restore.running", recovery, r -> r.isRunning() ? 1 : 0)
                .description("1 while a restore from the journal runs")
                .register(registry);
        restoreGauge(
                registry,
                "mykit.delay.restore.scanned",
                recovery,
                RestoreReport::scanned,
                "journal rows the running (or last) restore scanned");
        restoreGauge(
                registry,
                "mykit.delay.restore.restored",
                recovery,
                RestoreReport::restored,
                "jobs the running (or last) restore added to Redis");
    }

    private static void restoreGauge(
            MeterRegistry registry,
            String name,
            RecoveryService recovery,
            ToDoubleFunction<RestoreReport> value,
            String description) {
        Gauge.builder(name, recovery, r -> {
                    RestoreReport report = r.status();
                    return report == null ? 0 : value.applyAsDouble(report);
                })
                .description(description)
                .register(registry);
    }
}
