package io.mykit.delay.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelayPropertiesTest {

    /** The defaults plus the Redis host, which the embedded default or the operator supplies. */
    private static DelayProperties valid() {
        DelayProperties properties = new DelayProperties();
        properties.getRedis().setHost("127.0.0.1");
        return properties;
    }

    @Test
    void the_defaults_are_valid() {
        assertThatCode(() -> valid().validate()).doesNotThrowAnyException();
        DispatchProperties dispatch = new DelayProperties().getDispatch();
        assertThat(dispatch.getBacklog()).isEqualTo(10_000);
        assertThat(dispatch.getBacklogWait()).isEqualTo(Duration.ofSeconds(2));
        assertThat(dispatch.getStopWait()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void every_bad_value_is_named_in_one_start_up_error() {
        DelayProperties properties = valid();
        properties.getDispatch().setBacklog(0);
        properties.getDispatch().setBacklogWait(Duration.ofMillis(-1));
        properties.getDispatch().setStopWait(Duration.ofMinutes(6));
        properties.getDispatch().getRoutes().put("orders-*", "kafka");
        properties.getStream().setMaxCredit(0);
        properties.getStream().setIdleTimeout(Duration.ZERO);
        assertThatThrownBy(properties::validate)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mykit.delay.dispatch.backlog must be >= 1")
                .hasMessageContaining("mykit.delay.dispatch.backlog-wait must be 0..60s")
                .hasMessageContaining("mykit.delay.dispatch.stop-wait must be 0..5m")
                .hasMessageContaining("unknown target 'kafka'")
                .hasMessageContaining("mykit.delay.stream.max-credit must be >= 1")
                .hasMessageContaining("mykit.delay.stream.idle-timeout must be > 0");
    }

    @Test
    void a_route_to_a_broker_needs_that_broker_configured() {
        DelayProperties properties = valid();
        properties.getDispatch().setDefaultTarget("activemq");
        assertThatThrownBy(properties::validate).hasMessageContaining("mykit.delay.activemq.broker-url must be set");
    }

    @Test
    void cluster_nodes_replace_host_and_each_bad_entry_is_listed() {
        DelayProperties cluster = new DelayProperties();
        cluster.getRedis().setClusterNodes(List.of("10.0.0.1:7000", "redis-b.local:7001", "[::1]:7002"));
        assertThatCode(cluster::validate)
                .as("no host needed with cluster-nodes")
                .doesNotThrowAnyException();

        cluster.getRedis().setClusterNodes(List.of("10.0.0.1:7000", "10.0.0.2", "host:0", "h:70000", "a b:1"));
        cluster.getRedis().setDatabase(2);
        assertThatThrownBy(cluster::validate)
                .hasMessageContaining("mykit.delay.redis.cluster-nodes must be host:port entries")
                .hasMessageContaining("'10.0.0.2', 'host:0', 'h:70000', 'a b:1'")
                .hasMessageNotContaining("'10.0.0.1:7000'")
                .hasMessageContaining("mykit.delay.redis.database must be 0 with cluster-nodes")
                .hasMessageNotContaining("mykit.delay.redis.host must be set");
    }

    @Test
    void allowed_hosts_are_names_or_suffix_patterns_without_port_or_scheme() {
        DelayProperties properties = valid();
        properties.getHttp().setAllowedHosts(List.of("delay-gateway", "Gateway.Internal", "*.svc.cluster.local"));
        assertThatCode(properties::validate).doesNotThrowAnyException();

        properties.getHttp().setAllowedHosts(List.of("gateway:8080", "http://gateway", "*", "a b", "ok.example"));
        assertThatThrownBy(properties::validate)
                .hasMessageContaining("'gateway:8080' is no host name")
                .hasMessageContaining("'http://gateway' is no host name")
                .hasMessageContaining("'*' is no host name")
                .hasMessageContaining("'a b' is no host name")
                .hasMessageNotContaining("'ok.example'");
    }
}
