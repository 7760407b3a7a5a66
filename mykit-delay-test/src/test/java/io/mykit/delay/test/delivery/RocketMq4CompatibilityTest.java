package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.brokers.TestRocketMq4;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's RocketMQ 5.x client against a RocketMQ 4.9.7 name server and broker (child JVMs on the 4.9.7 jars): a
 * single job (sent synchronously) and jobs due at one instant (sent asynchronously, all at once) arrive with their tag,
 * keys, body and properties, and are journaled Finish.
 */
class RocketMq4CompatibilityTest {
    private static TestRocketMq4 rocketMq;
    private static TestGateway gateway;
    private static GatewayClient client;

    @BeforeAll
    static void start() {
        rocketMq = TestRocketMq4.start();
        gateway = TestGateway.start(
                "mykit.delay.dispatch.routes[old-*]=rocketmq",
                "mykit.delay.rocketmq.namesrv-addr=" + rocketMq.namesrvAddr(),
                "mykit.delay.rocketmq.topic-prefix=DELAY4_",
                "mykit.delay.rocketmq.send-timeout=3s",
                "mykit.delay.dispatch.retry-base=200ms",
                "mykit.delay.dispatch.retry-cap=2s");
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        try {
            gateway.close();
        } finally {
            rocketMq.close();
        }
    }

    @Test
    void jobs_reach_a_4_9_broker_with_tag_keys_body_and_properties() throws Exception {
        assertThat(rocketMq.brokerVersion()).isEqualTo("V4_9_7");
        String topic = "old-" + UUID.randomUUID().toString().substring(0, 8);
        String rocketTopic = "DELAY4_" + topic;
        rocketMq.createTopic(rocketTopic);

        long before = System.currentTimeMillis();
        String single = client.push("{\"topic\":\"" + topic + "\",\"subtopic\":\"close\",\"bizKey\":\"order-4\","
                        + "\"delay\":200,\"body\":\"close order 4\"}")
                .data()
                .asText();
        long due = System.currentTimeMillis() + 1_500;
        List<String> together = new ArrayList<>();
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < 20; i++) {
            String id = topic + "-" + i;
            together.add(id);
            batch.append(i == 0 ? "" : ",")
                    .append("{\"topic\":\"")
                    .append(topic)
                    .append("\",\"id\":\"")
                    .append(id)
                    .append("\",\"subtopic\":\"t")
                    .append(i % 2)
                    .append("\",\"createTime\":")
                    .append(due)
                    .append(",\"delay\":0,\"body\":\"b")
                    .append(i)
                    .append("\"}");
        }
        GatewayClient.Reply pushed = client.pushBatch(batch.append("]").toString());
        assertThat(pushed.success()).as(pushed.toString()).isTrue();

        Map<String, List<MessageExt>> got = RocketMqReader.readFromOldBroker(
                rocketMq.namesrvAddr(), rocketTopic, together.size() + 1, Duration.ofSeconds(30));
        assertThat(got).containsKey(single);
        MessageExt message = got.get(single).get(0);
        assertThat(message.getTags()).isEqualTo("close");
        assertThat(message.getKeys()).isEqualTo("order-4");
        assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).isEqualTo("close order 4");
        assertThat(message.getUserProperty("topic")).isEqualTo(topic);
        assertThat(Long.parseLong(message.getUserProperty("dueTime")))
                .isBetween(before + 200, System.currentTimeMillis());
        for (int i = 0; i < together.size(); i++) {
            assertThat(got).containsKey(together.get(i));
            MessageExt one = got.get(together.get(i)).get(0);
            assertThat(one.getTags()).isEqualTo("t" + i % 2);
            assertThat(new String(one.getBody(), StandardCharsets.UTF_8)).isEqualTo("b" + i);
            assertThat(one.getUserProperty("dueTime")).isEqualTo(Long.toString(due));
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(client.lookup(single).data().path("status").asText()).isEqualTo("Finish");
            together.forEach(id ->
                    assertThat(client.lookup(id).data().path("status").asText()).isEqualTo("Finish"));
        });
    }
}
