package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** On a Redis Cluster the sampled gauges and the redis health check reach every master that serves a bucket. */
class RedisClusterMetricsTest {

    @Test
    void sampled_counts_and_health_cover_every_cluster_node(
            @Gateway(value = "mykit.delay.metrics.sample-interval=300ms", redisCluster = true) TestGateway gateway) {
        String topic = "opsc-" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < 3; i++) {
            assertThat(gateway.client()
                            .push("{\"topic\":\"" + topic + "\",\"delay\":3600000}")
                            .status())
                    .isEqualTo(200);
        }
        for (int i = 0; i < 2; i++) {
            assertThat(gateway.client()
                            .push("{\"topic\":\"" + topic + "\",\"delay\":0}")
                            .status())
                    .isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Scrape scrape = Scrape.of(gateway.baseUrl());
            assertThat(scrape.sum("mykit_delay_pending")).isEqualTo(3.0);
            assertThat(scrape.sum("mykit_delay_ready")).isEqualTo(2.0);
        });
        Reply health = gateway.client().get("/actuator/health");
        assertThat(health.status()).as(health.toString()).isEqualTo(200);
        assertThat(health.json().path("components").path("redis").path("status").asText())
                .isEqualTo("UP");
    }
}
