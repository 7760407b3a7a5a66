package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.JobLogRow;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's ActiveMQ target (6.x jakarta client) against a real ActiveMQ Classic 5.x broker (javax.jms line) in a
 * child JVM, over OpenWire: properties and delivery mode arrive intact, and a broker crash loses no job. The consumer
 * is the 6.x client of this JVM: OpenWire is the same wire for both lines.
 */
class ActiveMq5CompatibilityTest {
    private static ActiveMq5Broker broker;
    private static TestGateway gateway;
    private static GatewayClient client;

    @BeforeAll
    static void start() {
        broker = ActiveMq5Broker.start();
        gateway = TestGateway.start(
                "mykit.delay.dispatch.routes[amq5-*]=activemq",
                "mykit.delay.activemq.broker-url=" + broker.brokerUrl(),
                "mykit.delay.activemq.send-timeout=1s",
                "mykit.delay.dispatch.retry-base=200ms",
                "mykit.delay.dispatch.retry-cap=1s");
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        try {
            if (gateway != null) {
                gateway.close();
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    private static String topic() {
        return "amq5-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Connection connect() throws JMSException {
        Connection connection = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        connection.start();
        return connection;
    }

    /** Receives until {@code expected} messages arrived or the time is up; returns them by job id. */
    private static Map<String, TextMessage> receive(String queue, int expected, Duration within) throws JMSException {
        Map<String, TextMessage> received = new HashMap<>();
        try (Connection connection = connect()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            long end = System.currentTimeMillis() + within.toMillis();
            while (received.size() < expected && System.currentTimeMillis() < end) {
                TextMessage message = (TextMessage) consumer.receive(200);
                if (message != null) {
                    received.put(message.getStringProperty("jobId"), message);
                }
            }
        }
        return received;
    }

    private static long delayEntries(String jobId) throws InterruptedException {
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        return gateway.bean(Journal.class).history(jobId).stream()
                .map(JobLogRow::status)
                .filter(status -> status == JobStatus.Delay.code())
                .count();
    }

    private static String status(String jobId) {
        return client.lookup(jobId).data().path("status").asText();
    }

    @Test
    void due_job_arrives_on_a_5x_broker_with_its_properties_and_is_journaled_finish() throws Exception {
        assertThat(broker.version()).as("broker version").startsWith("5.");
        try (Connection connection = connect()) {
            // the 6.x client is really talking to the child's 5.x broker, not to some other one
            assertThat(((ActiveMQConnection) connection).getBrokerName()).isEqualTo(broker.brokerName());
        }
        String topic = topic();
        long before = System.currentTimeMillis();
        String id = client.push("{\"topic\":\"" + topic + "\",\"subtopic\":\"close\",\"bizKey\":\"order-5\","
                        + "\"delay\":300,\"body\":\"close order 5\"}")
                .data()
                .asText();

        TextMessage message = receive(topic, 1, Duration.ofSeconds(30)).get(id);
        assertThat(message).as("message of job " + id + " on queue " + topic).isNotNull();
        assertThat(message.getText()).isEqualTo("close order 5");
        assertThat(message.getStringProperty("jobId")).isEqualTo(id);
        assertThat(message.getStringProperty("topic")).isEqualTo(topic);
        assertThat(message.getStringProperty("subtopic")).isEqualTo("close");
        assertThat(message.getStringProperty("bizKey")).isEqualTo("order-5");
        assertThat(message.getLongProperty("dueTime")).isBetween(before + 300, System.currentTimeMillis());
        assertThat(message.getIntProperty("attempt")).isEqualTo(1);
        assertThat(message.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(status(id)).isEqualTo("Finish"));
    }

    @Test
    void a_5x_broker_crash_loses_neither_confirmed_messages_nor_jobs_due_while_it_is_down() throws Exception {
        String topic = topic();
        // confirmed by the broker before the crash: a persistent message in its KahaDB journal
        String confirmed = client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"body\":\"before\"}")
                .data()
                .asText();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(status(confirmed)).isEqualTo("Finish"));

        broker.crash();
        List<String> dueWhileDown = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                // tries enough to outlast the broker's restart however slow the machine: with this class's 1 s cap
                // 50 tries last under a minute of failed sends
                dueWhileDown.add(client.push("{\"topic\":\"" + topic + "\",\"delay\":" + (i * 20)
                                + ",\"tries\":1000,\"body\":\"during " + i + "\"}")
                        .data()
                        .asText());
            }
            // every job fell due and had a send fail against the dead broker: a Delay log row when backed off
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(dueWhileDown)
                            .allSatisfy(id -> assertThat(delayEntries(id))
                                    .as("Delay entries of " + id)
                                    .isGreaterThan(0)));
        } finally {
            broker.startAgain();
        }

        List<String> expected = new ArrayList<>(dueWhileDown);
        expected.add(confirmed);
        Map<String, TextMessage> received = receive(topic, expected.size(), Duration.ofSeconds(30));
        assertThat(received.keySet()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(received.get(confirmed).getText()).isEqualTo("before");
        assertThat(received.get(confirmed).getIntProperty("attempt")).isEqualTo(1);
        for (String id : dueWhileDown) {
            assertThat(received.get(id).getIntProperty("attempt"))
                    .as("attempt of " + id)
                    .isGreaterThan(1);
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(dueWhileDown)
                        .allSatisfy(id -> assertThat(status(id)).isEqualTo("Finish")));
    }
}
