package io.mykit.delay.test.brokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.transport.DefaultTransportListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The embedded ActiveMQ broker works with the plain JMS client, and survives a stop and start on its port. */
class ActiveMqBrokerSmokeTest {

    private static final Logger log = LoggerFactory.getLogger(ActiveMqBrokerSmokeTest.class);

    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private static final long TRANSPORT_EVENT_TIMEOUT_S = 10;

    private TestActiveMq mq;

    @BeforeEach
    void startBroker() {
        long begin = System.nanoTime();
        mq = TestActiveMq.start();
        log.info("TIMING activemq first start {} ms", millisSince(begin));
    }

    @AfterEach
    void closeBroker() {
        mq.close();
    }

    @Test
    void persistent_message_arrives_with_its_jms_properties() throws JMSException {
        try (Connection connection = new ActiveMQConnectionFactory(mq.brokerUrl()).createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("smoke.properties");
            MessageProducer producer = session.createProducer(queue);
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);

            TextMessage sent = session.createTextMessage("{\"jobId\":\"job-42\"}");
            sent.setJMSCorrelationID("job-42");
            sent.setJMSType("mykit.delay.due");
            sent.setStringProperty("mykitTopic", "orders");
            sent.setLongProperty("mykitDueAt", 1_700_000_000_123L);
            sent.setIntProperty("mykitAttempt", 3);
            sent.setBooleanProperty("mykitRetry", true);
            producer.send(sent);

            MessageConsumer consumer = session.createConsumer(queue);
            Message received = consumer.receive(RECEIVE_TIMEOUT_MS);

            assertThat(received).isInstanceOf(TextMessage.class);
            assertThat(((TextMessage) received).getText()).isEqualTo("{\"jobId\":\"job-42\"}");
            assertThat(received.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
            assertThat(received.getJMSMessageID()).isEqualTo(sent.getJMSMessageID());
            assertThat(received.getJMSCorrelationID()).isEqualTo("job-42");
            assertThat(received.getJMSType()).isEqualTo("mykit.delay.due");
            assertThat(received.getStringProperty("mykitTopic")).isEqualTo("orders");
            assertThat(received.getLongProperty("mykitDueAt")).isEqualTo(1_700_000_000_123L);
            assertThat(received.getIntProperty("mykitAttempt")).isEqualTo(3);
            assertThat(received.getBooleanProperty("mykitRetry")).isTrue();
        }
    }

    @Test
    void sends_fail_while_broker_is_stopped_and_failover_recovers_after_restart_on_same_port() throws Exception {
        String queueName = "smoke.outage";
        TransportEvents events = new TransportEvents();
        // timeout: a failover send gives up after 1 s instead of blocking for the whole outage
        ActiveMQConnectionFactory failoverFactory = new ActiveMQConnectionFactory(mq.failoverUrl() + "&timeout=1000");
        try (Connection direct = new ActiveMQConnectionFactory(mq.brokerUrl()).createConnection();
                Connection failover = failoverFactory.createConnection()) {
            ((ActiveMQConnection) failover).addTransportListener(events);
            direct.start();
            failover.start();
            Session directSession = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer directProducer = persistentProducer(directSession, queueName);
            Session failoverSession = failover.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer failoverProducer = persistentProducer(failoverSession, queueName);

            directProducer.send(directSession.createTextMessage("before-outage"));

            long stopBegin = System.nanoTime();
            mq.stop();
            log.info("TIMING activemq stop {} ms", millisSince(stopBegin));
            assertThat(events.interrupted.await(TRANSPORT_EVENT_TIMEOUT_S, TimeUnit.SECONDS))
                    .as("failover connection notices the outage")
                    .isTrue();

            assertThatThrownBy(() -> directProducer.send(directSession.createTextMessage("lost")))
                    .isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> new ActiveMQConnectionFactory(mq.brokerUrl())
                            .createConnection()
                            .start())
                    .isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> failoverProducer.send(failoverSession.createTextMessage("timed-out")))
                    .isInstanceOf(JMSException.class);

            long restartBegin = System.nanoTime();
            mq.startAgain();
            log.info("TIMING activemq start again on port {} {} ms", mq.port(), millisSince(restartBegin));
            assertThat(events.resumed.await(TRANSPORT_EVENT_TIMEOUT_S, TimeUnit.SECONDS))
                    .as("failover connection reconnects to " + mq.brokerUrl())
                    .isTrue();
            log.info("TIMING activemq failover reconnected {} ms after start again", millisSince(restartBegin));

            failoverProducer.send(failoverSession.createTextMessage("after-outage"));

            MessageConsumer consumer = failoverSession.createConsumer(failoverSession.createQueue(queueName));
            assertThat(textOf(consumer.receive(RECEIVE_TIMEOUT_MS))).isEqualTo("before-outage");
            assertThat(textOf(consumer.receive(RECEIVE_TIMEOUT_MS))).isEqualTo("after-outage");
            assertThat(consumer.receiveNoWait()).isNull();
        }
    }

    private static MessageProducer persistentProducer(Session session, String queueName) throws JMSException {
        MessageProducer producer = session.createProducer(session.createQueue(queueName));
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        return producer;
    }

    private static String textOf(Message message) throws JMSException {
        assertThat(message).isInstanceOf(TextMessage.class);
        return ((TextMessage) message).getText();
    }

    private static long millisSince(long nanoTime) {
        return Duration.ofNanos(System.nanoTime() - nanoTime).toMillis();
    }

    /** Latches on the failover transport's interruption and resumption. */
    private static final class TransportEvents extends DefaultTransportListener {
        final CountDownLatch interrupted = new CountDownLatch(1);
        final CountDownLatch resumed = new CountDownLatch(1);

        @Override
        public void transportInterupted() {
            interrupted.countDown();
        }

        @Override
        public void transportResumed() {
            if (interrupted.getCount() == 0) {
                resumed.countDown();
            }
        }
    }
}
