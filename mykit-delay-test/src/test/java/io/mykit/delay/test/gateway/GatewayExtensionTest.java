package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.test.support.RedisClusterServers;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * {@link Gateway} starts a class's gateway before its {@code @BeforeAll} and a parameter's for its test alone, each
 * with its properties; {@link TestGateway#close()} leaves no key of its prefix behind, on one Redis or a cluster.
 */
class GatewayExtensionTest {
    @Gateway("mykit.delay.pull.poll-interval=50ms")
    private static TestGateway shared;

    private static String sharedPrefixAtBeforeAll;

    @BeforeAll
    static void seeTheClassGateway() {
        sharedPrefixAtBeforeAll = shared.keyPrefix();
    }

    @Test
    void a_static_field_gets_one_gateway_for_the_class_with_its_properties() {
        assertThat(sharedPrefixAtBeforeAll).isEqualTo(shared.keyPrefix());
        assertThat(shared.bean(DelayProperties.class).getPull().getPollInterval())
                .isEqualTo(Duration.ofMillis(50));
        assertThat(shared.client().get("/actuator/health").status()).isEqualTo(200);
    }

    @Test
    void a_parameter_gets_a_gateway_of_its_own(@Gateway("mykit.delay.admin.token=t0k3n") TestGateway own) {
        assertThat(own.keyPrefix()).isNotEqualTo(shared.keyPrefix());
        assertThat(own.bean(DelayProperties.class).getAdmin().getToken()).isEqualTo("t0k3n");
        assertThat(shared.bean(DelayProperties.class).getAdmin().getToken()).isNotEqualTo("t0k3n");
    }

    @Test
    void close_deletes_every_key_of_the_gateway_prefix() {
        TestServers.RedisEndpoint redis = TestServers.redis();
        List<HostAndPort> nodes = List.of(new HostAndPort(redis.host(), redis.port()));
        TestGateway gateway = TestGateway.start();
        try {
            pushSome(gateway);
            assertThat(keysOf(nodes, gateway.keyPrefix()))
                    .as("keys while running")
                    .isNotEmpty();
        } finally {
            gateway.close();
        }

        assertThat(keysOf(nodes, gateway.keyPrefix())).as("keys after close").isEmpty();
    }

    @Test
    void close_deletes_every_key_of_the_gateway_prefix_on_each_cluster_node() {
        RedisClusterServers cluster = RedisClusterServers.get();
        TestGateway gateway = TestGateway.startOnCluster(cluster, "mykit.delay.buckets=8");
        try {
            pushSome(gateway);
            assertThat(keysOf(cluster.nodes(), gateway.keyPrefix()))
                    .as("keys while running")
                    .isNotEmpty();
        } finally {
            gateway.close();
        }

        assertThat(keysOf(cluster.nodes(), gateway.keyPrefix()))
                .as("keys after close")
                .isEmpty();
    }

    private static void pushSome(TestGateway gateway) {
        for (int i = 0; i < 20; i++) {
            assertThat(gateway.client()
                            .push("{\"topic\":\"ext-" + i + "\",\"delay\":3600000}")
                            .status())
                    .isEqualTo(200);
        }
    }

    private static List<String> keysOf(List<HostAndPort> nodes, String prefix) {
        List<String> found = new ArrayList<>();
        for (HostAndPort node : nodes) {
            try (Jedis jedis = TestServers.jedis(node)) {
                ScanParams params = new ScanParams().match("*" + prefix + "*").count(1000);
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = jedis.scan(cursor, params);
                    found.addAll(page.getResult());
                    cursor = page.getCursor();
                } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
            }
        }
        return found;
    }
}
