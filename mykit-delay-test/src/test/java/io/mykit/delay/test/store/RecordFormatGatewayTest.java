package io.mykit.delay.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * The gateway writes compact records unless mykit.delay.redis.compact-records=false, which a rolling upgrade needs
 * while gateways of the previous version (JSON readers only) share the Redis; either way the job is delivered.
 */
class RecordFormatGatewayTest {
    private final String topic = "fmt-" + UUID.randomUUID().toString().substring(0, 8);
    private String lastId;

    @Test
    void the_gateway_writes_compact_records_by_default(@Gateway TestGateway gateway) {
        String record = pushAndReadRecord(gateway);

        assertThat(record).startsWith("~");
        pulledBack(gateway);
    }

    @Test
    void with_compact_records_off_the_gateway_writes_the_json_the_previous_version_reads(
            @Gateway("mykit.delay.redis.compact-records=false") TestGateway gateway) {
        String record = pushAndReadRecord(gateway);

        assertThat(record)
                .startsWith("{")
                .contains("\"id\":\"" + lastId + "\"")
                .contains("\"topic\":\"" + topic + "\"");
        pulledBack(gateway);
    }

    private String pushAndReadRecord(TestGateway gateway) {
        GatewayClient.Reply pushed =
                gateway.client().push("{\"topic\":\"" + topic + "\",\"delay\":500,\"body\":\"b\"}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        lastId = pushed.data().asText();
        TestServers.RedisEndpoint redis = TestServers.redis();
        try (JedisPooled jedis = TestServers.redisClient(redis.host(), redis.port())) {
            RedisDelayStore store = gateway.bean(RedisDelayStore.class);
            return jedis.hget(store.keys().pool(store.bucketOf(lastId)), lastId);
        }
    }

    private void pulledBack(TestGateway gateway) {
        GatewayClient.Reply pulled = gateway.client().get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(lastId);
        assertThat(pulled.data().path("body").asText()).isEqualTo("b");
        assertThat(gateway.client().finish(lastId).status()).isEqualTo(200);
    }
}
