package io.mykit.delay.test.gateway;

import io.mykit.delay.MykitDelayApplication;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.RedisProperties;
import io.mykit.delay.queue.journal.JobLogRow;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.support.KeyPrefixCleanup;
import io.mykit.delay.test.support.RedisClusterServers;
import io.mykit.delay.test.support.TestServers;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A whole gateway in the test JVM on a random port, against the real Redis (or {@link RedisClusterServers}) and MariaDB
 * of {@link TestServers}, with a key prefix and a journal database of its own so tests cannot see each other's data: a
 * restore reads the whole journal, so gateways must not share one. {@link #close()} deletes both. A test usually gets
 * one through {@link Gateway}.
 */
public final class TestGateway implements AutoCloseable {
    private final ConfigurableApplicationContext context;
    private final GatewayClient client;
    private final String baseUrl;
    private final String keyPrefix;
    private final String database;
    private final RedisProperties redis;

    private TestGateway(ConfigurableApplicationContext context, String keyPrefix, String database) {
        this.context = context;
        this.keyPrefix = keyPrefix;
        this.database = database;
        this.redis = context.getBean(DelayProperties.class).getRedis();
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        this.baseUrl = "http://127.0.0.1:" + port;
        this.client = new GatewayClient(baseUrl);
    }

    /** Starts against the shared test Redis. */
    public static TestGateway start(String... extraProperties) {
        TestServers.RedisEndpoint redis = TestServers.redis();
        return start(redis.host(), redis.port(), extraProperties);
    }

    /** Starts against the given Redis (fault tests use a private one). */
    public static TestGateway start(String redisHost, int redisPort, String... extraProperties) {
        return start(
                List.of("mykit.delay.redis.host=" + redisHost, "mykit.delay.redis.port=" + redisPort), extraProperties);
    }

    /** Starts against the given Redis with {@code initializer} run on the context before its beans are made. */
    public static TestGateway start(
            String redisHost,
            int redisPort,
            ApplicationContextInitializer<ConfigurableApplicationContext> initializer,
            String... extraProperties) {
        return start(
                List.of("mykit.delay.redis.host=" + redisHost, "mykit.delay.redis.port=" + redisPort),
                List.of(initializer),
                extraProperties);
    }

    /** Starts against the test JVM's Redis Cluster. */
    public static TestGateway startOnCluster(RedisClusterServers cluster, String... extraProperties) {
        return start(List.of("mykit.delay.redis.cluster-nodes=" + cluster.nodesSetting()), extraProperties);
    }

    /**
     * Starts with no store settings of its own (the caller's configuration names Redis and {@code database}, which is
     * dropped on close), only a port of its own and a key prefix of its own.
     */
    public static TestGateway startOnOwnSettings(String database, String... properties) {
        String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--mykit.delay.redis.key-prefix=" + prefix));
        if (Arrays.stream(properties).noneMatch(p -> p.startsWith("mykit.delay.http.warmup="))) {
            args.add("--mykit.delay.http.warmup=0");
        }
        for (String property : properties) {
            args.add("--" + property);
        }
        ConfigurableApplicationContext context =
                new SpringApplicationBuilder(MykitDelayApplication.class).run(args.toArray(String[]::new));
        return new TestGateway(context, prefix, database);
    }

    private static TestGateway start(List<String> redisProperties, String... extraProperties) {
        return start(redisProperties, List.of(), extraProperties);
    }

    private static TestGateway start(
            List<String> redisProperties,
            List<ApplicationContextInitializer<ConfigurableApplicationContext>> initializers,
            String... extraProperties) {
        String unique = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "it-" + unique;
        String database = "mykit_it_" + unique;
        List<String> props = new ArrayList<>(redisProperties);
        props.addAll(List.of(
                "server.port=0",
                "mykit.delay.embedded.enabled=false",
                // off unless a test asks: each start would warm up for seconds (StartupWarmupTest covers it)
                "mykit.delay.http.warmup=0",
                // the suite's forks share one Redis that a large test may keep busy for seconds on a loaded machine;
                // tests of Redis timeouts set their own
                "mykit.delay.redis.timeout=10s",
                // and one MariaDB, whose greeting a loaded machine may delay past the 3 s default
                "spring.datasource.hikari.connection-timeout=10000",
                "mykit.delay.redis.key-prefix=" + prefix,
                "spring.datasource.url=" + TestServers.jdbcUrl(database),
                "spring.datasource.username=" + TestServers.jdbcUser(),
                "spring.datasource.password=" + TestServers.jdbcPassword()));
        props.addAll(List.of(extraProperties));
        // one value per key, the caller's last: a repeated command-line key would be joined with commas
        Map<String, String> byKey = new LinkedHashMap<>();
        props.forEach(p -> byKey.put(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1)));
        // as command-line arguments: they must beat application.yml (server.port, hikari settings, ...)
        ConfigurableApplicationContext context = new SpringApplicationBuilder(MykitDelayApplication.class)
                .initializers(initializers.toArray(ApplicationContextInitializer[]::new))
                .run(byKey.entrySet().stream()
                        .map(e -> "--" + e.getKey() + "=" + e.getValue())
                        .toArray(String[]::new));
        return new TestGateway(context, prefix, database);
    }

    public GatewayClient client() {
        return client;
    }

    public String baseUrl() {
        return baseUrl;
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** Adds a listener to the running gateway's context (e.g. for the requests Spring MVC dispatched). */
    public void listen(org.springframework.context.ApplicationListener<?> listener) {
        context.addApplicationListener(listener);
    }

    /** The embedded web server the gateway serves on. */
    public org.springframework.boot.web.server.WebServer webServer() {
        return ((org.springframework.boot.web.context.WebServerApplicationContext) context).getWebServer();
    }

    /** Every bean of {@code type}, by name (none is an empty map). */
    public <T> java.util.Map<String, T> beans(Class<T> type) {
        return context.getBeansOfType(type);
    }

    /** The journal log's statuses of a job, oldest first, after the state writer flushed what it had queued. */
    public List<Integer> journalStatuses(String jobId) throws InterruptedException {
        flushJournal();
        return bean(Journal.class).history(jobId).stream()
                .map(JobLogRow::status)
                .toList();
    }

    /** Waits until the state writer wrote what it had queued; throws after 30 s. */
    public void flushJournal() throws InterruptedException {
        if (!bean(StateChangeWriter.class).flush(30_000)) {
            throw new IllegalStateException("journal state changes not flushed within 30 s");
        }
    }

    public String database() {
        return database;
    }

    /** Stops the gateway as a graceful shutdown does, keeping its journal database for a look afterwards. */
    public void stop() {
        context.close();
        forgetLoginTimeout();
    }

    /**
     * Hikari sets its connection-timeout as the JVM-wide {@link DriverManager#setLoginTimeout} when a pool starts: a
     * test's 1 s would otherwise bound every later connection of the fork, the harness's own included.
     */
    private static void forgetLoginTimeout() {
        DriverManager.setLoginTimeout(0);
    }

    /**
     * Stops the gateway, then deletes its keys from the Redis it ran on (which must still answer) and drops its journal
     * database.
     */
    @Override
    public void close() {
        context.close();
        forgetLoginTimeout();
        try {
            KeyPrefixCleanup.delete(redis, keyPrefix);
        } finally {
            TestServers.dropDatabase(database);
        }
    }
}
