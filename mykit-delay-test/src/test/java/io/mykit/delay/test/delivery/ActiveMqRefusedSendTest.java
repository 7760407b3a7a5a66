package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.queue.journal.JobLogRow;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.broker.BrokerFilter;
import org.apache.activemq.broker.BrokerPlugin;
import org.apache.activemq.broker.ProducerBrokerExchange;
import org.apache.activemq.command.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway sends a batch to ActiveMQ inside one transaction without waiting on each send. A real broker that refuses
 * one message of the batch must make the whole batch fail and be retried: none of it counts as delivered, and the
 * refused message is not lost.
 */
class ActiveMqRefusedSendTest {
    /** Job ids whose next send the broker refuses, once each. */
    private static final Set<String> REFUSE_ONCE = ConcurrentHashMap.newKeySet();

    private static final Set<String> REFUSED = ConcurrentHashMap.newKeySet();

    private static TestActiveMq broker;
    private static TestGateway gateway;
    private static GatewayClient client;

    /** Throws from the broker's send path, as a full store or a security plugin would. */
    private static final BrokerPlugin REFUSING = next -> new BrokerFilter(next) {
        @Override
        public void send(ProducerBrokerExchange exchange, Message message) throws Exception {
            Object jobId = message.getProperty("jobId");
            if (jobId != null && REFUSE_ONCE.remove(jobId.toString())) {
                REFUSED.add(jobId.toString());
                throw new IllegalStateException("test broker refuses job " + jobId);
            }
            super.send(exchange, message);
        }
    };

    @BeforeAll
    static void start() {
        broker = TestActiveMq.start(REFUSING);
        // one bucket: jobs due together are pumped and sent as one batch
        gateway = TestGateway.start(
                "mykit.delay.buckets=1",
                "mykit.delay.dispatch.default-target=activemq",
                "mykit.delay.activemq.broker-url=" + broker.brokerUrl(),
                "mykit.delay.dispatch.retry-base=200ms",
                "mykit.delay.dispatch.retry-cap=1s");
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        broker.close();
    }

    @Test
    void a_message_the_broker_refuses_fails_its_whole_batch_which_is_retried_and_nothing_is_lost() throws Exception {
        String topic = "refuse-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> ids =
                IntStream.range(0, 5).mapToObj(i -> topic + "-job-" + i).toList();
        REFUSE_ONCE.add(ids.get(2));
        long due = System.currentTimeMillis() + 1_500;
        String jobs = ids.stream()
                .map(id -> "{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"createTime\":" + due + ",\"delay\":0}")
                .collect(Collectors.joining(",", "[", "]"));
        assertThat(client.pushBatch(jobs).status()).isEqualTo(200);

        Map<String, Integer> received = new HashMap<>();
        Connection connection = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(topic));
            long end = System.currentTimeMillis() + 20_000;
            while (received.size() < ids.size() && System.currentTimeMillis() < end) {
                TextMessage message = (TextMessage) consumer.receive(200);
                if (message != null) {
                    received.merge(message.getStringProperty("jobId"), 1, Integer::sum);
                }
            }
            // anything the refused batch had put on the queue would show up here as a second copy
            TextMessage extra;
            while ((extra = (TextMessage) consumer.receive(1_000)) != null) {
                received.merge(extra.getStringProperty("jobId"), 1, Integer::sum);
            }
        } finally {
            connection.close();
        }

        assertThat(REFUSED).as("the broker refused the job once").containsExactly(ids.get(2));
        assertThat(received.keySet()).as("every job, the refused one too").containsExactlyInAnyOrderElementsOf(ids);
        assertThat(received.values())
                .as("the rolled-back batch left no copies behind")
                .allMatch(n -> n == 1);
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        for (String id : ids) {
            List<Integer> log = gateway.bean(Journal.class).history(id).stream()
                    .map(JobLogRow::status)
                    .toList();
            // WaitPut (the push), Delay (the batch's send failed, backed off), Finish
            assertThat(log).as("journal of " + id).containsSubsequence(0, 1, 3);
        }
    }
}
