package io.mykit.delay.core;

import io.mykit.delay.common.util.JobIdGenerator;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.Dispatcher;
import io.mykit.delay.queue.dispatch.RetryPolicy;
import io.mykit.delay.queue.dispatch.PullTarget;
import io.mykit.delay.queue.journal.JobLogMapper;
import io.mykit.delay.queue.journal.JobMapper;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.MybatisJournal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.service.DeadLetterService;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.PushPipeline;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.BucketTimer;
import io.mykit.delay.queue.timer.InflightSweeper;
import io.mykit.delay.queue.timer.StrandedJobRepairer;
import io.mykit.delay.queue.timer.TimerGroup;
import org.apache.ibatis.annotations.Mapper;
import org.mybatis.spring.annotation.MapperScan;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Wires the engine from the {@code mykit.delay.*} tree; the engine classes themselves know nothing of Spring. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DelayProperties.class)
@MapperScan(basePackageClasses = JobMapper.class, annotationClass = Mapper.class)
public class DelayQueueConfiguration {

    @Bean
    public Clock delayClock() {
        return Clock.systemUTC();
    }

    @Bean(destroyMethod = "close")
    public JedisPool delayJedisPool(DelayProperties properties) {
        DelayProperties.Redis redis = properties.getRedis();
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(redis.getPoolSize());
        config.setMaxIdle(redis.getPoolSize());
        config.setMinIdle(Math.min(8, redis.getPoolSize()));
        config.setTestWhileIdle(true);
        int timeout = (int) redis.getTimeout().toMillis();
        String password = redis.getPassword() == null || redis.getPassword().isEmpty() ? null : redis.getPassword();
        return new JedisPool(config, redis.getHost(), redis.getPort(), timeout, password, redis.getDatabase());
    }

    @Bean
    public RedisDelayStore delayStore(JedisPool pool, DelayProperties properties) {
        Keys keys = new Keys(properties.getRedis().getKeyPrefix(), properties.getBuckets());
        // before anything uses the store: jobs move to their buckets if mykit.delay.buckets changed since the last run
        StandaloneLayout.ensure(properties.getRedis(), keys);
        return new RedisDelayStore(pool, keys);
    }

    @Bean
    public Journal delayJournal(JobMapper jobs, JobLogMapper logs, JdbcTemplate jdbc, PlatformTransactionManager txManager) {
        return new MybatisJournal(jobs, logs, jdbc, new TransactionTemplate(txManager), hostName());
    }

    @Bean
    public StateChangeWriter stateChangeWriter(Journal journal, DelayProperties properties) {
        return new StateChangeWriter(journal, properties.getJournal().getBatchSize(),
                properties.getJournal().getStateLinger().toMillis());
    }

    @Bean
    public PullTarget pullTarget(RedisDelayStore store, StateChangeWriter states, Clock clock, DelayProperties properties) {
        return new PullTarget(store, states, clock, properties.getPull().getPollInterval().toMillis());
    }

    @Bean
    public DeliveryOutcomes deliveryOutcomes(RedisDelayStore store, Journal journal, StateChangeWriter states, Clock clock,
                                             DelayProperties properties, ObjectProvider<TimerGroup> timers) {
        DelayProperties.Dispatch dispatch = properties.getDispatch();
        RetryPolicy policy = new RetryPolicy(dispatch.getRetryBase().toMillis(), dispatch.getRetryCap().toMillis(),
                properties.getLimits().getDefaultTries());
        // the timers need the dispatcher and the dispatcher's outcomes wake the timers: resolve lazily
        return new DeliveryOutcomes(store, journal, states, policy, (bucket, at) -> timers.getObject().wake(bucket, at), clock);
    }

    @Bean(destroyMethod = "close")
    public DeliveryTargets deliveryTargets(DelayProperties properties, PullTarget pull, DeliveryOutcomes outcomes) {
        return new DeliveryTargets(properties, pull, outcomes);
    }

    @Bean
    public Dispatcher dispatcher(DeliveryTargets targets) {
        return new Dispatcher(targets.router()::route);
    }

    @Bean
    public TimerGroup timerGroup(RedisDelayStore store, Dispatcher dispatcher, Journal journal, StateChangeWriter states,
                                 DeliveryOutcomes outcomes, Clock clock, DelayProperties properties) {
        DelayProperties.Timer timer = properties.getTimer();
        List<BucketTimer> timers = new ArrayList<>();
        for (int b = 0; b < properties.getBuckets(); b++) {
            timers.add(new BucketTimer(b, store, dispatcher, clock, timer.getBatchSize(),
                    timer.getMaxIdle().toMillis(), timer.getDispatchTimeout().toMillis()));
        }
        TimerGroup group = new TimerGroup(timers);
        group.addHelper(new InflightSweeper(store, states, outcomes, group::wake, clock,
                timer.getSweepInterval().toMillis(), properties.getLimits().getDefaultTries()));
        group.addHelper(new StrandedJobRepairer(journal, store, states, group::wake, clock,
                properties.getJournal().getRepairAfter().toMillis()));
        return group;
    }

    @Bean
    public PushPipeline pushPipeline(Journal journal, RedisDelayStore store, StateChangeWriter states, TimerGroup timers,
                                     Clock clock, DelayProperties properties) {
        return new PushPipeline(journal, store, states, timers::wake, clock,
                properties.getJournal().getBatchSize(), properties.getJournal().getWriters());
    }

    @Bean
    public DelayQueueService delayQueueService(DelayProperties properties, PushPipeline pushes, RedisDelayStore store,
                                               Journal journal, StateChangeWriter states, PullTarget pull,
                                               DeliveryOutcomes outcomes, TimerGroup timers, Clock clock) {
        return new DelayQueueService(properties, new JobIdGenerator(clock::millis), pushes, store, journal, states,
                pull, outcomes, timers::wake, clock);
    }

    @Bean
    public DeadLetterService deadLetterService(Journal journal, RedisDelayStore store, StateChangeWriter states,
                                               TimerGroup timers, Clock clock) {
        return new DeadLetterService(journal, store, states, timers::wake, clock);
    }

    @Bean
    public RecoveryService recoveryService(Journal journal, RedisDelayStore store, StateChangeWriter states,
                                           TimerGroup timers, Clock clock, DelayProperties properties) {
        return new RecoveryService(journal, store, states, timers::wake, clock, properties.getRecovery().getPageSize());
    }

    @Bean
    public GatewayLifecycle gatewayLifecycle(RedisDelayStore store, StateChangeWriter states, PushPipeline pushes,
                                             DeliveryTargets targets) {
        return new GatewayLifecycle(store, states, pushes, targets);
    }

    @Bean
    public DueRoadLifecycle dueRoadLifecycle(RedisDelayStore store, TimerGroup timers, Journal journal,
                                             RecoveryService recovery, PullTarget pull, Clock clock,
                                             DelayProperties properties) {
        RedisLossWatch watch = properties.getRecovery().isAuto()
                ? new RedisLossWatch(store, journal, recovery, clock, properties.getRecovery().getCheckInterval().toMillis())
                : null;
        return new DueRoadLifecycle(timers, watch, pull, properties.getTimer().isEnabled());
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
