package io.mykit.delay.test.gateway;

import io.mykit.delay.MykitDelayApplication;
import io.mykit.delay.test.support.TestServers;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A whole gateway in the test JVM on a random port, against the real Redis and MariaDB of {@link TestServers},
 * with a key prefix and journal database of its own so tests cannot see each other's data.
 */
public final class TestGateway implements AutoCloseable {
    public static final String DATABASE = "mykit_delay_it";

    private final ConfigurableApplicationContext context;
    private final GatewayClient client;
    private final String keyPrefix;

    private TestGateway(ConfigurableApplicationContext context, String keyPrefix) {
        this.context = context;
        this.keyPrefix = keyPrefix;
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        this.client = new GatewayClient("http://127.0.0.1:" + port);
    }

    /** Starts against the shared test Redis. */
    public static TestGateway start(String... extraProperties) {
        TestServers.RedisEndpoint redis = TestServers.redis();
        return start(redis.host(), redis.port(), extraProperties);
    }

    /** Starts against the given Redis (fault tests use a private one). */
    public static TestGateway start(String redisHost, int redisPort, String... extraProperties) {
        String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> props = new ArrayList<>(List.of(
                "server.port=0",
                "mykit.delay.embedded.enabled=false",
                "mykit.delay.redis.host=" + redisHost,
                "mykit.delay.redis.port=" + redisPort,
                "mykit.delay.redis.key-prefix=" + prefix,
                "spring.datasource.url=" + TestServers.jdbcUrl(DATABASE),
                "spring.datasource.username=" + TestServers.jdbcUser(),
                "spring.datasource.password=" + TestServers.jdbcPassword()));
        props.addAll(List.of(extraProperties));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(MykitDelayApplication.class)
                .properties(props.toArray(String[]::new))
                .run();
        return new TestGateway(context, prefix);
    }

    public GatewayClient client() {
        return client;
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}
