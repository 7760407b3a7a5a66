package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The whole {@code mykit.delay.*} configuration tree: one class per setting group, each checking its own keys;
 * {@link #validate()} runs them all at start-up.
 */
@ConfigurationProperties("mykit.delay")
public class DelayProperties implements InitializingBean {
    public static final int DEFAULT_BUCKETS = 16;

    /** Number of Redis ZSET buckets jobs are spread over by CRC32(id). */
    private int buckets = DEFAULT_BUCKETS;
    /** Who pumps the buckets: this node alone, the ZooKeeper leader, or every live node its share. */
    private Mode mode = Mode.STANDALONE;
    /** ZooKeeper, for the master-slave and cluster modes. */
    @NestedConfigurationProperty
    private final RegistryProperties registry = new RegistryProperties();
    /** Redis connection and key layout. */
    @NestedConfigurationProperty
    private final RedisProperties redis = new RedisProperties();
    /** Per-bucket timers that move due jobs. */
    @NestedConfigurationProperty
    private final TimerProperties timer = new TimerProperties();
    /** HTTP pull consumers. */
    @NestedConfigurationProperty
    private final PullProperties pull = new PullProperties();
    /** WebSocket stream consumers. */
    @NestedConfigurationProperty
    private final StreamProperties stream = new StreamProperties();
    /** Input limits checked before anything is stored. */
    @NestedConfigurationProperty
    private final LimitsProperties limits = new LimitsProperties();
    /** The MySQL journal's write batching. */
    @NestedConfigurationProperty
    private final JournalProperties journal = new JournalProperties();
    /** Where due jobs go, and how failed sends are retried. */
    @NestedConfigurationProperty
    private final DispatchProperties dispatch = new DispatchProperties();
    /** The ActiveMQ target. */
    @NestedConfigurationProperty
    private final ActiveMqProperties activemq = new ActiveMqProperties();
    /** The RocketMQ target. */
    @NestedConfigurationProperty
    private final RocketMqProperties rocketmq = new RocketMqProperties();
    /** Rebuilding Redis from the journal. */
    @NestedConfigurationProperty
    private final RecoveryProperties recovery = new RecoveryProperties();
    /** Admin endpoints. */
    @NestedConfigurationProperty
    private final AdminProperties admin = new AdminProperties();
    /** How the HTTP boundary answers. */
    @NestedConfigurationProperty
    private final HttpProperties http = new HttpProperties();
    /** Metrics at /actuator/prometheus. */
    @NestedConfigurationProperty
    private final MetricsProperties metrics = new MetricsProperties();
    /** Services sharing the gateway, by name; none (the default) = no call needs a token. */
    private final Map<String, TenantProperties> tenants = new LinkedHashMap<>();
    /** A .properties file of more tenants (same keys), read again whenever it changes; none by default. */
    private Path tenantsFile;

    public int getBuckets() {
        return buckets;
    }

    public void setBuckets(int buckets) {
        this.buckets = buckets;
    }

    public Mode getMode() {
        return mode;
    }

    public void setMode(Mode mode) {
        this.mode = mode;
    }

    public RegistryProperties getRegistry() {
        return registry;
    }

    public RedisProperties getRedis() {
        return redis;
    }

    public TimerProperties getTimer() {
        return timer;
    }

    public PullProperties getPull() {
        return pull;
    }

    public StreamProperties getStream() {
        return stream;
    }

    public LimitsProperties getLimits() {
        return limits;
    }

    public JournalProperties getJournal() {
        return journal;
    }

    public DispatchProperties getDispatch() {
        return dispatch;
    }

    public ActiveMqProperties getActivemq() {
        return activemq;
    }

    public RocketMqProperties getRocketmq() {
        return rocketmq;
    }

    public RecoveryProperties getRecovery() {
        return recovery;
    }

    public AdminProperties getAdmin() {
        return admin;
    }

    public HttpProperties getHttp() {
        return http;
    }

    public MetricsProperties getMetrics() {
        return metrics;
    }

    public Map<String, TenantProperties> getTenants() {
        return tenants;
    }

    public Path getTenantsFile() {
        return tenantsFile;
    }

    public void setTenantsFile(Path tenantsFile) {
        this.tenantsFile = tenantsFile;
    }

    @Override
    public void afterPropertiesSet() {
        validate();
    }

    /** Fails fast with a message naming the key, instead of failing at the first message. */
    public void validate() {
        List<String> errors = new ArrayList<>();
        check(errors, buckets >= 1 && buckets <= 1024, "mykit.delay.buckets must be 1..1024, was " + buckets);
        redis.validate(errors);
        timer.validate(errors);
        pull.validate(errors);
        stream.validate(errors);
        limits.validate(errors);
        journal.validate(errors);
        recovery.validate(errors);
        metrics.validate(errors);
        http.validate(errors);
        dispatch.validate(errors);
        // a broker's settings matter only when a route sends to it
        Set<String> used = dispatch.usedTargets();
        if (used.contains(DispatchProperties.ACTIVEMQ)) {
            activemq.validate(errors);
        }
        if (used.contains(DispatchProperties.ROCKETMQ)) {
            rocketmq.validate(errors);
        }
        if (mode != Mode.STANDALONE) {
            registry.validate(errors, mode.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        validateTenants(errors);
        if (!errors.isEmpty()) {
            throw new IllegalStateException("Invalid mykit-delay configuration:\n  " + String.join("\n  ", errors));
        }
    }

    /** The configured tenants and the tenants file's, if one is set, checked together. */
    private void validateTenants(List<String> errors) {
        Map<String, TenantProperties> all = tenants;
        if (tenantsFile != null) {
            try {
                all = Tenants.merged(tenants, TenantsFile.read(tenantsFile));
            } catch (IOException | IllegalArgumentException e) {
                errors.add("mykit.delay.tenants-file " + tenantsFile + " cannot be read: " + e.getMessage());
            }
        }
        errors.addAll(Tenants.problems(all, admin.getToken()));
    }

    public enum Mode {
        STANDALONE,
        MASTER_SLAVE,
        CLUSTER
    }
}
