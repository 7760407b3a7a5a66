package io.mykit.delay.core;

import io.mykit.delay.common.util.JobIdGenerator;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.DispatchProperties;
import io.mykit.delay.config.PullProperties;
import io.mykit.delay.config.TimerProperties;
import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.cluster.WakeBus;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.Dispatcher;
import io.mykit.delay.queue.dispatch.RetryPolicy;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.dispatch.pull.RedisHandOverCounts;
import io.mykit.delay.queue.journal.EndingsBarrier;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.service.DeadLetterService;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.JobValidator;
import io.mykit.delay.queue.service.PushPipeline;
import io.mykit.delay.queue.stats.LatenessRecorder;
import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.RedisNodes;
import io.mykit.delay.queue.timer.BucketTimer;
import io.mykit.delay.queue.timer.InflightSweeper;
import io.mykit.delay.queue.timer.StrandedJobRepairer;
import io.mykit.delay.queue.timer.TimerGroup;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the engine from the {@code mykit.delay.*} tree; the engine classes themselves know nothing of Spring. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DelayProperties.class)
public class DelayQueueConfiguration {

    /** Statement cache and session-state options for a MySQL/MariaDB journal URL that does not set them. */
    @Bean
    public static JdbcUrlDefaults jdbcUrlDefaults() {
        return new JdbcUrlDefaults();
    }

    @Bean
    public Clock delayClock() {
        return Clock.systemUTC();
    }

    /** One Redis, or a Redis Cluster when mykit.delay.redis.cluster-nodes is set. */
    @Bean(destroyMethod = "close")
    public RedisNodes delayRedis(DelayProperties properties) {
        return RedisConnections.open(properties.getRedis());
    }

    @Bean
    public FenceTokens fenceTokens(DelayProperties properties) {
        return properties.getMode() == DelayProperties.Mode.STANDALONE
                ? new FenceTokens(properties.getBuckets())
                : FenceTokens.fenced(properties.getBuckets());
    }

    @Bean
    public RedisDelayStore delayStore(RedisNodes redis, DelayProperties properties, FenceTokens fence) {
        Keys keys = new Keys(properties.getRedis().getKeyPrefix(), properties.getBuckets());
        if (properties.getMode() == DelayProperties.Mode.STANDALONE) {
            // before anything uses the store: jobs move to their buckets if mykit.delay.buckets changed since the last
            // run
            StartupLayout.ensure(properties.getRedis(), keys);
        }
        return new RedisDelayStore(redis, keys, fence, properties.getRedis().isCompactRecords());
    }

    @Bean
    public PullTarget pullTarget(
            RedisDelayStore store,
            RedisNodes redis,
            StateChangeWriter states,
            Clock clock,
            DelayProperties properties) {
        PullProperties pull = properties.getPull();
        return new PullTarget(
                store,
                states,
                clock,
                pull.getPollInterval().toMillis(),
                PullTarget.DEFAULT_POLL_WORKERS,
                pull.getMaxWaitingPolls(),
                new RedisHandOverCounts(redis, store.keys().handOvers()));
    }

    @Bean
    public DeliveryOutcomes deliveryOutcomes(
            RedisDelayStore store,
            Journal journal,
            StateChangeWriter states,
            Clock clock,
            DelayProperties properties,
            ObjectProvider<TimerGroup> timers) {
        DispatchProperties dispatch = properties.getDispatch();
        RetryPolicy policy = new RetryPolicy(
                dispatch.getRetryBase().toMillis(),
                dispatch.getRetryCap().toMillis(),
                properties.getLimits().getDefaultTries());
        // the timers need the dispatcher and the dispatcher's outcomes wake the timers: resolve lazily
        return new DeliveryOutcomes(
                store,
                store,
                journal,
                states,
                policy,
                (bucket, at) -> timers.getObject().wake(bucket, at),
                clock);
    }

    @Bean(destroyMethod = "close")
    public DeliveryTargets deliveryTargets(DelayProperties properties, PullTarget pull, DeliveryOutcomes outcomes) {
        return new DeliveryTargets(properties, pull, outcomes);
    }

    @Bean
    public Dispatcher dispatcher(DeliveryTargets targets, LatenessRecorder lateness) {
        return new Dispatcher(
                targets.router(),
                lateness::handedOver,
                targets.pullOnly() ? (PullTarget) targets.target(PullTarget.NAME) : null);
    }

    @Bean
    public TimerGroup timerGroup(
            RedisDelayStore store,
            Dispatcher dispatcher,
            Journal journal,
            StateChangeWriter states,
            DeliveryOutcomes outcomes,
            Clock clock,
            DelayProperties properties,
            ObjectProvider<BucketOwnership> ownership,
            ObjectProvider<WakeBus> wakes) {
        TimerProperties timer = properties.getTimer();
        List<BucketTimer> timers = new ArrayList<>();
        for (int b = 0; b < properties.getBuckets(); b++) {
            timers.add(new BucketTimer(
                    b,
                    store,
                    dispatcher,
                    clock,
                    timer.getBatchSize(),
                    timer.getMaxIdle().toMillis(),
                    timer.getDispatchTimeout().toMillis()));
        }
        TimerGroup group = new TimerGroup(timers);
        // the ownership needs the timers and the helpers ask the ownership: resolve lazily
        group.addHelper(new InflightSweeper(
                store,
                states,
                outcomes,
                group::wake,
                clock,
                timer.getSweepInterval().toMillis(),
                properties.getLimits().getDefaultTries(),
                () -> ownership.getObject().activeBuckets()));
        EndingsBarrier endings = properties.getMode() == DelayProperties.Mode.STANDALONE
                ? states::flushEndings
                : timeoutMs -> wakes.getObject().flushEverywhere(timeoutMs);
        group.addHelper(new StrandedJobRepairer(
                journal,
                store,
                states,
                group::wake,
                clock,
                properties.getJournal().getRepairAfter().toMillis(),
                () -> ownership.getObject().runsChores(),
                endings));
        return group;
    }

    @Bean
    public RedisLossWatch redisLossWatch(
            RedisDelayStore store,
            Journal journal,
            RecoveryService recovery,
            Clock clock,
            DelayProperties properties,
            ObjectProvider<BucketOwnership> ownership) {
        return new RedisLossWatch(
                store,
                journal,
                recovery,
                clock,
                properties.getRecovery().getCheckInterval().toMillis(),
                () -> properties.getRecovery().isAuto() && ownership.getObject().runsChores());
    }

    @Bean
    public PushPipeline pushPipeline(
            Journal journal,
            RedisDelayStore store,
            StateChangeWriter states,
            BucketWaker bucketWaker,
            Clock clock,
            DelayProperties properties) {
        return new PushPipeline(
                journal,
                store,
                states,
                bucketWaker,
                clock,
                properties.getJournal().getBatchSize(),
                properties.getJournal().getWriters(),
                properties.getJournal().getPushLinger().toNanos());
    }

    /** The request checks, against mykit.delay.limits.* and mykit.delay.pull.*. */
    @Bean
    public JobValidator jobValidator(DelayProperties properties) {
        return new JobValidator(
                EngineSettings.jobLimits(properties.getLimits()), EngineSettings.pullLimits(properties.getPull()));
    }

    @Bean
    public DelayQueueService delayQueueService(
            JobValidator validator,
            DelayProperties properties,
            PushPipeline pushes,
            RedisDelayStore store,
            Journal journal,
            StateChangeWriter states,
            PullTarget pull,
            DeliveryOutcomes outcomes,
            BucketWaker bucketWaker,
            Clock clock,
            DeliveryTargets targets) {
        return new DelayQueueService(
                validator,
                properties.getJournal().getPushTimeout(),
                new JobIdGenerator(clock::millis),
                pushes,
                store,
                journal,
                states,
                pull,
                outcomes,
                bucketWaker,
                clock,
                targets.router());
    }

    @Bean
    public DeadLetterService deadLetterService(
            Journal journal,
            RedisDelayStore store,
            StateChangeWriter states,
            BucketWaker bucketWaker,
            Clock clock,
            DelayProperties properties) {
        return new DeadLetterService(
                journal,
                store,
                states,
                bucketWaker,
                clock,
                properties.getLimits().getMaxBatchSize());
    }

    @Bean
    public RecoveryService recoveryService(
            Journal journal,
            RedisDelayStore store,
            StateChangeWriter states,
            ObjectProvider<BucketWaker> bucketWaker,
            Clock clock,
            DelayProperties properties) {
        // the waker needs the wake bus, whose ownership's loss watch needs this service: resolve lazily
        return new RecoveryService(
                journal,
                store,
                store,
                states,
                (bucket, at) -> bucketWaker.getObject().wake(bucket, at),
                clock,
                properties.getRecovery().getPageSize());
    }

    @Bean
    public GatewayLifecycle gatewayLifecycle(
            RedisDelayStore store,
            StateChangeWriter states,
            PushPipeline pushes,
            DeliveryTargets targets,
            RedisLossWatch lossWatch) {
        return new GatewayLifecycle(store, states, pushes, targets, lossWatch);
    }

    @Bean
    StartupWarmup startupWarmup(
            ApplicationContext context,
            DelayProperties properties,
            DeliveryLifecycle delivery,
            DelayQueueService queue) {
        return new StartupWarmup(
                () -> context instanceof WebServerApplicationContext web ? web.getWebServer() : null,
                StartupWarmup.duration(properties.getHttp().getWarmup()),
                delivery::start,
                queue,
                properties.getLimits().getMaxBatchSize());
    }

    @Bean
    public DeliveryLifecycle deliveryLifecycle(
            TimerGroup timers,
            RedisLossWatch lossWatch,
            BucketOwnership ownership,
            WakeBus wakes,
            PullTarget pull,
            DelayProperties properties) {
        boolean alone = properties.getMode() == DelayProperties.Mode.STANDALONE;
        return new DeliveryLifecycle(
                timers,
                lossWatch,
                ownership,
                alone ? null : wakes,
                pull,
                properties.getTimer().isEnabled());
    }
}
