package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Due jobs routed to a real embedded ActiveMQ broker: properties, routing, outage, retries, dead letters, ttl. */
class ActiveMqDeliveryTest {
    private static TestActiveMq broker;
    private static TestGateway gateway;
    private static GatewayClient client;
    private static Connection consumerConnection;

    @BeforeAll
    static void start() throws JMSException {
        broker = TestActiveMq.start();
        gateway = TestGateway.start(
                "mykit.delay.dispatch.routes[amq-*]=activemq",
                "mykit.delay.activemq.broker-url=" + broker.brokerUrl(),
                "mykit.delay.activemq.send-timeout=1s",
                "mykit.delay.dispatch.retry-base=200ms",
                "mykit.delay.dispatch.retry-cap=2s");
        client = gateway.client();
        consumerConnection = new ActiveMQConnectionFactory(broker.failoverUrl()).createConnection();
        consumerConnection.start();
    }

    @AfterAll
    static void stop() throws JMSException {
        consumerConnection.close();
        gateway.close();
        broker.close();
    }

    private static String topic() {
        return "amq-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Receives until {@code expected} distinct job ids arrived or the time is up; returns id -> times received. */
    private static Map<String, Integer> receive(String queue, int expected, Duration within) throws JMSException {
        return JmsReceiver.counts(JmsReceiver.receive(consumerConnection, queue, expected, within));
    }

    private static List<Integer> journal(String jobId) throws InterruptedException {
        return gateway.journalStatuses(jobId);
    }

    @Test
    void due_job_arrives_on_its_queue_with_properties_and_is_journaled_finish() throws Exception {
        String topic = topic();
        long before = System.currentTimeMillis();
        String id = client.push("{\"topic\":\"" + topic + "\",\"subtopic\":\"close\",\"bizKey\":\"order-7\","
                        + "\"delay\":300,\"body\":\"close order 7\"}")
                .data()
                .asText();
        Session session = consumerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        try (MessageConsumer consumer = session.createConsumer(session.createQueue(topic))) {
            TextMessage message = (TextMessage) consumer.receive(10_000);
            assertThat(message).as("message on queue " + topic).isNotNull();
            assertThat(message.getText()).isEqualTo("close order 7");
            assertThat(message.getStringProperty("jobId")).isEqualTo(id);
            assertThat(message.getStringProperty("subtopic")).isEqualTo("close");
            assertThat(message.getStringProperty("bizKey")).isEqualTo("order-7");
            assertThat(message.getLongProperty("dueTime")).isBetween(before + 300, System.currentTimeMillis());
            assertThat(message.getJMSDeliveryMode()).isEqualTo(jakarta.jms.DeliveryMode.PERSISTENT);
        } finally {
            session.close();
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("status").asText())
                                .isEqualTo("Finish"));
    }

    @Test
    void only_routed_topics_go_to_activemq_the_rest_stay_pull() throws Exception {
        String pullTopic = "plain-" + UUID.randomUUID().toString().substring(0, 8);
        String id = client.push("{\"topic\":\"" + pullTopic + "\",\"delay\":0}")
                .data()
                .asText();
        assertThat(client.get(pullTopic, 30_000, 30_000).data().path("id").asText())
                .isEqualTo(id);
        assertThat(receive(pullTopic, 1, Duration.ofMillis(500))).isEmpty();

        String amqTopic = topic();
        client.push("{\"topic\":\"" + amqTopic + "\",\"delay\":0}");
        assertThat(receive(amqTopic, 1, Duration.ofSeconds(30))).hasSize(1);
        assertThat(client.get(amqTopic, 30_000, 300).data().isNull()).isTrue();
    }

    @Test
    void broker_down_for_30s_while_jobs_fall_due_loses_nothing() throws Exception {
        String topic = topic();
        broker.stop();
        Set<String> ids = new HashSet<>();
        try {
            for (int i = 0; i < 50; i++) {
                // 50 tries: with this test's 2 s backoff cap the default 16 would be used up within the 30 s
                ids.add(client.push("{\"topic\":\"" + topic + "\",\"delay\":" + (i * 40) + ",\"tries\":50}")
                        .data()
                        .asText());
            }
            Thread.sleep(30_000); // the outage the issue asks for: every job falls due and fails several sends
        } finally {
            broker.startAgain();
        }
        Map<String, Integer> received = receive(topic, ids.size(), Duration.ofSeconds(30));
        assertThat(received.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        int duplicates = received.values().stream().mapToInt(n -> n - 1).sum();
        System.out.println("ActiveMQ outage: " + ids.size() + " jobs, " + duplicates + " duplicate deliveries");
        String sample = ids.iterator().next();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                client.lookup(sample).data().path("status").asText())
                        .isEqualTo("Finish"));
        // retries are visible: WaitPut (the push), Delay (send failed, backed off) at least twice, Finish
        assertThat(journal(sample)).containsSubsequence(0, 1, 1, 3);
    }

    @Test
    void tries_used_up_goes_dead_then_respawn_delivers_it() throws Exception {
        String topic = topic();
        broker.stop();
        String id;
        try {
            id = client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"tries\":2,\"body\":\"x\"}")
                    .data()
                    .asText();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(
                                    client.lookup(id).data().path("status").asText())
                            .isEqualTo("Dead"));
        } finally {
            broker.startAgain();
        }
        GatewayClient.Reply dead = client.get("/dead/" + topic);
        assertThat(dead.data()).hasSize(1);
        assertThat(dead.data().get(0).path("id").asText()).isEqualTo(id);
        assertThat(receive(topic, 1, Duration.ofSeconds(1)))
                .as("nothing sent while dead")
                .isEmpty();

        GatewayClient.Reply respawned =
                client.raw("POST", "/dead/" + topic + "/respawn", "application/json", "{\"ids\":[\"" + id + "\"]}");
        assertThat(respawned.data().path("respawned").asInt()).isEqualTo(1);
        assertThat(receive(topic, 1, Duration.ofSeconds(30))).containsKey(id);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("status").asText())
                                .isEqualTo("Finish"));
        assertThat(client.get("/dead/" + topic).data()).isEmpty();
    }

    @Test
    void job_whose_ttl_runs_out_while_undeliverable_is_dead_as_expired_and_can_be_dropped() throws Exception {
        String topic = topic();
        broker.stop();
        String id;
        try {
            id = client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"ttl\":1500,\"tries\":100}")
                    .data()
                    .asText();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(
                                    client.lookup(id).data().path("status").asText())
                            .isEqualTo("Dead"));
        } finally {
            broker.startAgain();
        }
        List<Integer> statuses = new ArrayList<>(journal(id));
        assertThat(statuses.get(statuses.size() - 1)).isEqualTo(7);
        assertThat(statuses.stream().filter(s -> s == 1).count())
                .as("retried before expiring")
                .isGreaterThan(1);
        GatewayClient.Reply dropped = client.raw("DELETE", "/dead/" + topic, null, null);
        assertThat(dropped.data().path("dropped").asInt()).isEqualTo(1);
        assertThat(client.lookup(id).data().path("status").asText()).isEqualTo("Delete");
        assertThat(receive(topic, 1, Duration.ofSeconds(2))).isEmpty();
    }
}
