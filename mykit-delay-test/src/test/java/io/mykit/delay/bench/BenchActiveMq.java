package io.mykit.delay.bench;

import io.mykit.delay.test.brokers.TestActiveMq;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.transport.tcp.TcpTransport;

/**
 * The test harness's embedded ActiveMQ Classic broker (KahaDB in a temp dir) and a consumer of one queue: a few
 * threads, each with its own session, receiving and acknowledging one message at a time (AUTO_ACKNOWLEDGE).
 */
final class BenchActiveMq implements BenchBroker {
    private static final int CONSUMER_THREADS = 4;

    private final TestActiveMq broker;
    private final List<ConsumerGroup> consumers = new ArrayList<>();
    /** The name of the consumer connection's transport thread: "ActiveMQ Transport: " + the transport. */
    private final Set<String> consumerTransportThreads = ConcurrentHashMap.newKeySet();

    private BenchActiveMq(TestActiveMq broker) {
        this.broker = broker;
    }

    /** {@code -Dbench.activemq.disk-sync=false}: a broker that does not sync its journal per write, as in the tests. */
    private static final boolean DISK_SYNC =
            Boolean.parseBoolean(System.getProperty("bench.activemq.disk-sync", "true"));

    static BenchActiveMq start() {
        return new BenchActiveMq(TestActiveMq.startForBench(DISK_SYNC));
    }

    @Override
    public String name() {
        return DISK_SYNC ? "ActiveMQ" : "ActiveMQ (no disk sync)";
    }

    @Override
    public List<String> gatewayProperties() {
        return List.of(
                "mykit.delay.dispatch.default-target=activemq",
                "mykit.delay.activemq.broker-url=" + broker.brokerUrl());
    }

    @Override
    public void consume(String topic, Receipts receipts) throws JMSException {
        consumers.add(startConsumers(topic, receipts));
    }

    /** One connection's consumer threads; {@link #stop} ends them before the broker closes. */
    private record ConsumerGroup(Connection connection, List<Thread> threads, AtomicBoolean stopped) {
        void stop() throws JMSException, InterruptedException {
            stopped.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
            connection.close();
        }
    }

    private ConsumerGroup startConsumers(String topic, Receipts receipts) throws JMSException {
        Connection connection = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        connection.start();
        consumerTransportThreads.add("ActiveMQ Transport: "
                + ((ActiveMQConnection) connection).getTransport().narrow(TcpTransport.class));
        AtomicBoolean stopped = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CONSUMER_THREADS; c++) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(topic));
            Thread thread = new Thread(() -> receive(consumer, receipts, stopped), "bench-consumer-" + c);
            threads.add(thread);
            thread.start();
        }
        return new ConsumerGroup(connection, threads, stopped);
    }

    private void receive(MessageConsumer consumer, Receipts receipts, AtomicBoolean stopped) {
        while (!stopped.get()) {
            try {
                Message message = consumer.receive(100);
                if (message != null) {
                    receipts.received(message.getStringProperty("jobId"), message.getLongProperty("dueTime"));
                }
            } catch (JMSException | RuntimeException e) {
                if (!stopped.get()) {
                    receipts.failed("JMS receive: " + e);
                }
            }
        }
    }

    /**
     * The broker alone, to compare the gateway's drain with: {@code messages} persistent messages like the gateway's
     * sent to {@code queue} (no consumer) by {@code threads} producers, each confirmed on its own (perCommit 1:
     * synchronous sends, as ActiveMqTarget makes them) or by the commit of a transaction of {@code perCommit}. Returns
     * messages/s.
     */
    double sendDirect(String queue, int messages, int threads, int perCommit, String body) throws Exception {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(broker.brokerUrl());
        // in a transaction the sends go one way and the commit waits for the broker
        factory.setAlwaysSyncSend(perCommit == 1);
        Connection producers = factory.createConnection();
        try {
            producers.start();
            AtomicInteger next = new AtomicInteger();
            AtomicReference<Exception> failure = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(
                        () -> {
                            try {
                                produce(producers, queue, messages, perCommit, body, next);
                            } catch (Exception e) {
                                failure.compareAndSet(null, e);
                            }
                        },
                        "bench-direct-" + t);
                workers.add(worker);
                worker.start();
            }
            for (Thread worker : workers) {
                worker.join();
            }
            if (failure.get() != null) {
                throw failure.get();
            }
            return messages / ((System.nanoTime() - start) / 1e9);
        } finally {
            producers.close();
        }
    }

    /** One producer, each message in a transaction of its own; the consumer's 4 threads read the queue meanwhile. */
    @Override
    public Paced pacedAlone(String queue, int rate, int seconds, String body) throws Exception {
        Receipts receipts = new Receipts();
        // its own consumers, stopped after the comparison so they do not poll through the gateway's measurement
        ConsumerGroup reader = startConsumers(queue, receipts);
        Connection connection = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        try {
            connection.start();
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            PacedSchedule.Send send = (id, slotEpochMs) -> {
                TextMessage message = session.createTextMessage(body);
                message.setStringProperty("jobId", id);
                message.setLongProperty("dueTime", slotEpochMs);
                producer.send(message);
                session.commit();
            };
            return PacedSchedule.measure(name(), "commit per message", receipts, rate, seconds, send);
        } finally {
            try {
                connection.close();
            } finally {
                reader.stop();
            }
        }
    }

    private static void produce(
            Connection connection, String queue, int messages, int perCommit, String body, AtomicInteger next)
            throws JMSException {
        boolean transacted = perCommit > 1;
        Session session = connection.createSession(
                transacted, transacted ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
        try {
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            int inTransaction = 0;
            int i;
            while ((i = next.getAndIncrement()) < messages) {
                TextMessage message = session.createTextMessage(body);
                message.setStringProperty("jobId", "direct-" + i);
                message.setStringProperty("topic", queue);
                message.setLongProperty("dueTime", System.currentTimeMillis());
                message.setIntProperty("attempt", 1);
                producer.send(message);
                if (transacted && ++inTransaction == perCommit) {
                    session.commit();
                    inTransaction = 0;
                }
            }
            if (inTransaction > 0) {
                session.commit();
            }
        } finally {
            session.close();
        }
    }

    @Override
    public boolean isBrokerThread(String threadName) {
        if (threadName.startsWith("ActiveMQ Transport: ")) {
            // tcp:///127.0.0.1:remote@local: the broker's end of a connection is local on the broker's port
            return threadName.endsWith("@" + broker.port());
        }
        // Session Task threads dispatch to a client's consumers; KahaDB writes in ConcurrentQueueStoreAndDispatch
        return threadName.startsWith("ActiveMQ") && !threadName.startsWith("ActiveMQ Session Task")
                || threadName.equals("ConcurrentQueueStoreAndDispatch");
    }

    @Override
    public boolean isConsumerThread(String threadName) {
        return threadName.startsWith("ActiveMQ Session Task") || consumerTransportThreads.contains(threadName);
    }

    @Override
    public void close() {
        // every group's threads told first, so none reports the broker's going as a failed receive
        consumers.forEach(group -> group.stopped().set(true));
        try {
            for (ConsumerGroup consumer : consumers) {
                consumer.stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (JMSException e) {
            // the broker goes next anyway
        } finally {
            broker.close();
        }
    }
}
