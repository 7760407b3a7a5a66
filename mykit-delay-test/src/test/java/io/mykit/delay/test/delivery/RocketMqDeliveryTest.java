package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.brokers.TestRocketMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Due jobs routed to a real RocketMQ name server + broker: topic, tag, keys, properties, broker outage. */
class RocketMqDeliveryTest {
    private static TestRocketMq rocketMq;
    private static TestGateway gateway;
    private static GatewayClient client;

    @BeforeAll
    static void start() {
        rocketMq = TestRocketMq.start();
        gateway = TestGateway.start(
                "mykit.delay.dispatch.routes[rmq-*]=rocketmq",
                "mykit.delay.rocketmq.namesrv-addr=" + rocketMq.namesrvAddr(),
                "mykit.delay.rocketmq.topic-prefix=DELAY_",
                "mykit.delay.rocketmq.send-timeout=2s",
                "mykit.delay.dispatch.retry-base=200ms",
                "mykit.delay.dispatch.retry-cap=2s");
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    /** A gateway topic and its RocketMQ topic (prefix DELAY_, dots made underscores), created up front. */
    private static String[] topics() {
        String topic = "rmq-" + UUID.randomUUID().toString().substring(0, 8);
        String rocketTopic = "DELAY_" + topic;
        rocketMq.createTopic(rocketTopic);
        return new String[] {topic, rocketTopic};
    }

    private static Map<String, List<MessageExt>> read(String rocketTopic, int expected, Duration within)
            throws Exception {
        return RocketMqReader.read(rocketMq.namesrvAddr(), rocketTopic, expected, within);
    }

    @Test
    void due_job_arrives_on_its_rocketmq_topic_with_tag_keys_and_properties() throws Exception {
        String[] t = topics();
        long before = System.currentTimeMillis();
        String id = client.push("{\"topic\":\"" + t[0] + "\",\"subtopic\":\"close\",\"bizKey\":\"order-9\","
                        + "\"delay\":300,\"body\":\"close order 9\"}")
                .data()
                .asText();
        Map<String, List<MessageExt>> got = read(t[1], 1, Duration.ofSeconds(20));
        assertThat(got).containsKey(id);
        MessageExt message = got.get(id).get(0);
        assertThat(message.getTags()).isEqualTo("close");
        assertThat(message.getKeys()).isEqualTo("order-9");
        assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).isEqualTo("close order 9");
        assertThat(Long.parseLong(message.getUserProperty("dueTime")))
                .isBetween(before + 300, System.currentTimeMillis());
        assertThat(message.getUserProperty("topic")).isEqualTo(t[0]);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("status").asText())
                                .isEqualTo("Finish"));
    }

    /** Jobs due at one instant leave in one pumped batch: the asynchronous, all-at-once path of the sender. */
    @Test
    void jobs_due_at_one_instant_all_arrive_with_their_properties() throws Exception {
        String[] t = topics();
        long due = System.currentTimeMillis() + 1_500;
        StringBuilder batch = new StringBuilder("[");
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String id = "rmq-batch-" + UUID.randomUUID();
            ids.add(id);
            batch.append(i == 0 ? "" : ",")
                    .append("{\"topic\":\"")
                    .append(t[0])
                    .append("\",\"id\":\"")
                    .append(id)
                    .append("\",\"subtopic\":\"tag")
                    .append(i % 3)
                    .append("\",\"createTime\":")
                    .append(due)
                    .append(",\"delay\":0,\"body\":\"body ")
                    .append(i)
                    .append("\"}");
        }
        assertThat(client.pushBatch(batch.append("]").toString()).success()).isTrue();
        Map<String, List<MessageExt>> got = read(t[1], ids.size(), Duration.ofSeconds(30));
        assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        for (int i = 0; i < ids.size(); i++) {
            MessageExt message = got.get(ids.get(i)).get(0);
            assertThat(message.getTags()).isEqualTo("tag" + i % 3);
            assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).isEqualTo("body " + i);
            assertThat(message.getUserProperty("dueTime")).isEqualTo(Long.toString(due));
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> ids.forEach(
                        id -> assertThat(client.lookup(id).data().path("status").asText())
                                .isEqualTo("Finish")));
    }

    @Test
    void broker_down_while_jobs_fall_due_loses_nothing() throws Exception {
        String[] t = topics();
        Set<String> ids = new HashSet<>();
        rocketMq.stopBroker();
        try {
            for (int i = 0; i < 30; i++) {
                // tries enough to outlast any restart: with the default 16 tries and this class's 2 s retry cap a job
                // is buried after about 25 s of failed sends, less than a loaded machine can take to restart a broker
                ids.add(client.push("{\"topic\":\"" + t[0] + "\",\"delay\":" + (i * 50) + ",\"tries\":1000,"
                                + "\"body\":\"b" + i + "\"}")
                        .data()
                        .asText());
            }
            // every job falls due and fails a send while the broker is away: a failed send journals Delay (1)
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptionsInstanceOf(IllegalStateException.class)
                    .untilAsserted(() -> {
                        for (String id : ids) {
                            assertThat(gateway.journalStatuses(id))
                                    .as("journal of %s", id)
                                    .contains(1);
                        }
                    });
        } finally {
            rocketMq.startBroker();
        }
        // a job waits at most the 2 s retry cap for its next send, and the producer finds the broker again on the
        // first send after it registered; the deadline only bounds a machine too busy to do either for minutes
        Map<String, List<MessageExt>> got = read(t[1], ids.size(), Duration.ofSeconds(120));
        assertThat(got.keySet()).as(client.notArrived(ids, got.keySet())).containsExactlyInAnyOrderElementsOf(ids);
        int duplicates = got.values().stream().mapToInt(list -> list.size() - 1).sum();
        System.out.println("RocketMQ outage: " + ids.size() + " jobs, " + duplicates + " duplicate deliveries");
    }
}
