package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.TimerGroup;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TcpProxy;
import io.mykit.delay.test.support.TestServers;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs a broker sender holds, against a real ActiveMQ behind a TCP proxy that hangs or slows it: a cancel or a finish
 * of such a job is refused (it may be on the broker already; the broker, not a puller, delivers it), as is a finish of
 * one due and not yet handed over, and the job is delivered and journaled Finish; a graceful stop while a sender is
 * mid-batch journals the batch's Finish before the journal writer closes.
 */
class BrokerHandOverTest {
    private static TestActiveMq broker;
    private static Connection consumer;

    @BeforeAll
    static void start() throws JMSException {
        broker = TestActiveMq.start();
        consumer = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        consumer.start();
    }

    @AfterAll
    static void stop() throws JMSException {
        consumer.close();
        broker.close();
    }

    private static TestGateway gatewayBehind(TcpProxy proxy) {
        return TestGateway.start(
                "mykit.delay.dispatch.routes[handover-*]=activemq",
                "mykit.delay.activemq.broker-url=tcp://127.0.0.1:" + proxy.port(),
                "mykit.delay.dispatch.senders=1");
    }

    @Test
    void a_job_a_sender_holds_cannot_be_cancelled_and_is_delivered_and_finished() throws Exception {
        String topic = "handover-" + UUID.randomUUID().toString().substring(0, 8);
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", broker.port());
                TestGateway gateway = gatewayBehind(proxy)) {
            GatewayClient client = gateway.client();
            String warm = push(client, topic, 0);
            assertThat(JmsReceiver.receive(consumer, topic, 1, Duration.ofSeconds(30)))
                    .containsKey(warm);

            proxy.freeze();
            String held;
            try {
                held = push(client, topic, 0);
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(
                                        client.lookup(held).data().path("stage").asText())
                                .isEqualTo("IN_FLIGHT"));
                Reply cancel = client.delete(held);
                assertThat(cancel.status())
                        .as("cancel of a job a sender holds: " + cancel)
                        .isEqualTo(409);
                // the broker delivers it, not a puller: no spelling of a finish may end it
                Reply finish = client.finish(held);
                assertThat(finish.status())
                        .as("finish of a job a sender holds: " + finish)
                        .isEqualTo(409);
                assertThat(finish.json().path("message").asText()).contains("handed to its delivery target");
                Reply rest = client.raw("POST", "/jobs/" + held + "/finish", null, null);
                assertThat(rest.status())
                        .as("REST finish of a job a sender holds: " + rest)
                        .isEqualTo(409);
                Reply batch = client.raw("POST", "/finish/batch", "application/json", "[\"" + held + "\"]");
                assertThat(batch.data().path("finished")).as(batch.toString()).isEmpty();
                assertThat(batch.data().path("refused").path(held).asText())
                        .as(batch.toString())
                        .contains("handed to its delivery target");
            } finally {
                proxy.thaw();
            }
            assertThat(JmsReceiver.receive(consumer, topic, 1, Duration.ofSeconds(30)))
                    .containsKey(held);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(
                                    client.lookup(held).data().path("status").asText())
                            .isEqualTo(JobStatus.Finish.name()));

            // due, not yet handed over (its bucket's timer is held): not a puller's to finish either
            String due = "handover-due-" + UUID.randomUUID();
            TimerGroup timers = gateway.bean(TimerGroup.class);
            int bucket = gateway.bean(RedisDelayStore.class).bucketOf(due);
            timers.stopBucket(bucket);
            try {
                Reply pushed = client.push("{\"id\":\"" + due + "\",\"topic\":\"" + topic + "\",\"delay\":0}");
                assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
                Reply early = client.finish(due);
                assertThat(early.status())
                        .as("finish of a due job not yet handed over: " + early)
                        .isEqualTo(409);
                assertThat(early.json().path("message").asText()).contains("not yet handed over");
                Reply batch = client.raw("POST", "/finish/batch", "application/json", "[\"" + due + "\"]");
                assertThat(batch.data().path("refused").path(due).asText())
                        .as(batch.toString())
                        .contains("not yet handed over");
            } finally {
                timers.startBucket(bucket);
            }
            assertThat(JmsReceiver.receive(consumer, topic, 1, Duration.ofSeconds(30)))
                    .containsKey(due);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(
                                    client.lookup(due).data().path("status").asText())
                            .isEqualTo(JobStatus.Finish.name()));

            String waiting = push(client, topic, 1_000);
            assertThat(client.delete(waiting).status())
                    .as("cancel of a job still waiting")
                    .isEqualTo(200);
            assertThat(JmsReceiver.receive(consumer, topic, 1, Duration.ofSeconds(3)))
                    .doesNotContainKey(waiting);
        }
    }

    @Test
    void a_graceful_stop_journals_the_batch_a_sender_is_sending() throws Exception {
        String topic = "handover-stop-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> ids = new ArrayList<>();
        Map<String, Integer> statuses;
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", broker.port());
                TestGateway gateway = gatewayBehind(proxy)) {
            GatewayClient client = gateway.client();
            String warm = push(client, topic, 0);
            assertThat(JmsReceiver.receive(consumer, topic, 1, Duration.ofSeconds(30)))
                    .containsKey(warm);

            // every chunk through the proxy now takes 400 ms each way: the batch's commit is answered ~1 s late
            proxy.delay(Duration.ofMillis(400));
            long due = System.currentTimeMillis() + 500;
            StringBuilder batch = new StringBuilder("[");
            for (int i = 0; i < 50; i++) {
                batch.append(i == 0 ? "" : ",")
                        .append("{\"topic\":\"")
                        .append(topic)
                        .append("\",\"delay\":0,\"createTime\":")
                        .append(due)
                        .append('}');
            }
            Reply pushed = client.pushBatch(batch.append(']').toString());
            assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
            pushed.data().forEach(id -> ids.add(id.asText()));
            String last = ids.get(ids.size() - 1);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(
                                    client.lookup(last).data().path("stage").asText())
                            .isEqualTo("IN_FLIGHT"));
            gateway.stop();
            statuses = journalStatuses(gateway.database());
        }
        Map<String, Integer> received =
                JmsReceiver.counts(JmsReceiver.receive(consumer, topic, ids.size(), Duration.ofSeconds(10)));
        assertThat(received).as("jobs the stopping gateway sent").isNotEmpty();
        Map<String, Integer> receivedButPending = new HashMap<>();
        received.keySet().forEach(id -> {
            if (!Integer.valueOf(JobStatus.Finish.code()).equals(statuses.get(id))) {
                receivedButPending.put(id, statuses.get(id));
            }
        });
        assertThat(receivedButPending)
                .as("jobs on the broker whose journal status is not Finish after the stop")
                .isEmpty();
    }

    /** Job id -> journal status, read straight from the stopped gateway's database. */
    private static Map<String, Integer> journalStatuses(String database) throws Exception {
        Map<String, Integer> statuses = new HashMap<>();
        try (var connection = DriverManager.getConnection(
                        TestServers.jdbcUrl(database), TestServers.jdbcUser(), TestServers.jdbcPassword());
                PreparedStatement query = connection.prepareStatement("SELECT id, status FROM mykit_delay_queue_job");
                ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                statuses.put(rows.getString(1), rows.getInt(2));
            }
        }
        return statuses;
    }

    private static String push(GatewayClient client, String topic, long delay) {
        Reply reply = client.push("{\"topic\":\"" + topic + "\",\"delay\":" + delay + ",\"body\":\"b\"}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }
}
