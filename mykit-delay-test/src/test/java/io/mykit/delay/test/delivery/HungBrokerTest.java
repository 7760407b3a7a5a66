package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TcpProxy;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;
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
 * A broker that hangs (its connections stay open, no byte comes back) or answers slowly, behind a real TCP proxy in
 * front of a real ActiveMQ. One bucket, one sender and a backlog of 5 fill the target quickly. A hung broker must not
 * hold the timer that pull topics share, and its jobs must all arrive once it answers again; a slow broker that keeps
 * answering must hold hand-overs back (back-pressure) without failing them. Every send is confirmed, so a batch that
 * takes long still shows the broker answering.
 */
class HungBrokerTest {
    private static final int BACKLOG = 5;

    private static TestActiveMq broker;
    private static TcpProxy proxy;
    private static TestGateway gateway;
    private static GatewayClient client;
    private static Connection consumerConnection;

    @BeforeAll
    static void start() throws JMSException {
        broker = TestActiveMq.start();
        proxy = new TcpProxy("127.0.0.1", broker.port());
        gateway = TestGateway.start(
                "mykit.delay.buckets=1",
                "mykit.delay.dispatch.routes[hung-*]=activemq",
                "mykit.delay.activemq.broker-url=tcp://127.0.0.1:" + proxy.port(),
                "mykit.delay.activemq.confirm-each-send=true",
                "mykit.delay.dispatch.senders=1",
                "mykit.delay.dispatch.backlog=" + BACKLOG,
                "mykit.delay.dispatch.backlog-wait=1s",
                "mykit.delay.dispatch.retry-base=200ms",
                "mykit.delay.dispatch.retry-cap=1s");
        client = gateway.client();
        // straight to the broker, not through the proxy
        consumerConnection = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        consumerConnection.start();
    }

    @AfterAll
    static void stop() throws JMSException {
        consumerConnection.close();
        gateway.close();
        proxy.close();
        broker.close();
    }

    @Test
    void pull_topics_keep_flowing_while_the_broker_hangs_and_the_hung_jobs_arrive_afterwards() throws Exception {
        String hungTopic = "hung-" + UUID.randomUUID().toString().substring(0, 8);
        String pullTopic = "plain-" + UUID.randomUUID().toString().substring(0, 8);
        String first = push(hungTopic);
        assertThat(receive(hungTopic, List.of(first), Duration.ofSeconds(30))).containsKey(first);

        List<String> ids = new ArrayList<>();
        String pulled;
        proxy.freeze();
        try {
            // one job held by the sender, BACKLOG waiting for it, the rest find the target full
            for (int i = 0; i < BACKLOG + 7; i++) {
                ids.add(push(hungTopic));
                Thread.sleep(30);
            }
            String pullId = push(pullTopic);
            GatewayClient.Reply reply = client.get(pullTopic, 30_000, 30_000);
            pulled = reply.data().path("id").asText();
            assertThat(pulled).as("pull job handed over while the broker hangs").isEqualTo(pullId);
            String late = ids.get(ids.size() - 1);
            // the push logs WaitPut only: each Delay row is a failed hand-over backed off
            assertThat(journal(late))
                    .as("journal of " + late + ": a failed hand-over is a retry")
                    .filteredOn(status -> status == JobStatus.Delay.code())
                    .hasSizeGreaterThanOrEqualTo(1);
        } finally {
            proxy.thaw();
        }
        Map<String, Integer> received = receive(hungTopic, ids, Duration.ofSeconds(30));
        assertThat(received.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        int duplicates = received.values().stream().mapToInt(times -> times - 1).sum();
        System.out.println("hung broker: " + ids.size() + " jobs, " + duplicates + " duplicate deliveries");
    }

    @Test
    void a_slow_broker_that_keeps_answering_holds_hand_overs_back_without_failing_them() throws Exception {
        String topic = "hung-slow-" + UUID.randomUUID().toString().substring(0, 8);
        String warm = push(topic);
        assertThat(receive(topic, List.of(warm), Duration.ofSeconds(30))).containsKey(warm);
        proxy.delay(Duration.ofMillis(100));
        try {
            // ten jobs due at one instant: one batch of ten confirmed sends, about 200 ms each through the proxy,
            // holding the whole backlog for two seconds or more (over the 1 s backlog wait); one more job falls due
            // 300 ms into that batch
            long due = System.currentTimeMillis() + 1_000;
            List<String> ids = new ArrayList<>();
            StringBuilder batch = new StringBuilder("[");
            for (int i = 0; i <= 10; i++) {
                String id = topic + "-" + i;
                ids.add(id);
                batch.append(i == 0 ? "" : ",")
                        .append("{\"topic\":\"")
                        .append(topic)
                        .append("\",\"id\":\"")
                        .append(id)
                        .append("\",\"createTime\":")
                        .append(i < 10 ? due : due + 300)
                        .append(",\"delay\":0}");
            }
            GatewayClient.Reply pushed = client.pushBatch(batch.append("]").toString());
            assertThat(pushed.success()).as(pushed.toString()).isTrue();
            Map<String, Integer> attempts = receiveAttempts(topic, ids, Duration.ofSeconds(30));
            assertThat(attempts.keySet()).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(attempts)
                    .as("attempt of each job's first delivery: none failed for want of room")
                    .allSatisfy((id, attempt) -> assertThat(attempt).isEqualTo(1));
            String last = ids.get(10);
            assertThat(journal(last).stream()
                            .filter(status -> status == JobStatus.Delay.code())
                            .count())
                    .as("Delay rows of " + last + ", which waited for room, against " + ids.get(0) + ", which did not")
                    .isEqualTo(journal(ids.get(0)).stream()
                            .filter(status -> status == JobStatus.Delay.code())
                            .count());
        } finally {
            proxy.delay(Duration.ZERO);
        }
    }

    /**
     * A job due now with tries enough to outlast the hang however slow the machine: at this class's 1 s retry cap the
     * default 16 tries last about 15 s of failed hand-overs.
     */
    private static String push(String topic) {
        GatewayClient.Reply reply =
                client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"tries\":1000,\"body\":\"b\"}");
        assertThat(reply.success()).as(reply.toString()).isTrue();
        return reply.data().asText();
    }

    /** Receives until every expected id arrived or the time is up; returns id -> times received. */
    private static Map<String, Integer> receive(String queue, List<String> expected, Duration within)
            throws JMSException {
        return JmsReceiver.counts(JmsReceiver.receive(consumerConnection, queue, expected.size(), within));
    }

    /** As {@link #receive}, keeping each job's {@code attempt} property of its first delivery. */
    private static Map<String, Integer> receiveAttempts(String queue, List<String> expected, Duration within)
            throws JMSException {
        Map<String, Integer> attempts = new HashMap<>();
        for (Map.Entry<String, List<TextMessage>> job : JmsReceiver.receive(
                        consumerConnection, queue, expected.size(), within)
                .entrySet()) {
            attempts.put(job.getKey(), job.getValue().get(0).getIntProperty("attempt"));
        }
        return attempts;
    }

    private static List<Integer> journal(String jobId) throws InterruptedException {
        return gateway.journalStatuses(jobId);
    }
}
