package io.mykit.delay.queue.dispatch.broker;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.SendFailure;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.apache.activemq.ActiveMQConnectionFactory;

import java.util.List;

/**
 * Sends due jobs to ActiveMQ (OpenWire, Classic 5.x and 6.x alike): topic -> queue (or JMS topic), persistent.
 * Each pumped batch goes out in one local transaction and counts as delivered only once the broker confirmed the
 * commit. One connection; each sender
 * thread keeps its own transacted session and producer. A failed connection is rebuilt on the next send; with a
 * {@code failover:} URL the client also reconnects by itself.
 */
public class ActiveMqTarget extends BrokerTarget {
    public static final String NAME = "activemq";

    private final DelayProperties.ActiveMq config;
    private final boolean jobJson;
    private final ActiveMQConnectionFactory factory;
    private final ThreadLocal<SenderSession> sessions = new ThreadLocal<>();
    private Connection connection;
    private long generation;

    /** A sender thread's session, valid while the connection generation it was made on is current. */
    private record SenderSession(long generation, Session session, MessageProducer producer) {
    }

    public ActiveMqTarget(DelayProperties.ActiveMq config, DelayProperties.Dispatch dispatch, DeliveryOutcomes outcomes) {
        super(NAME, dispatch, outcomes);
        this.config = config;
        this.jobJson = "job-json".equals(config.getPayload());
        this.factory = new ActiveMQConnectionFactory(config.getBrokerUrl());
        if (config.getUsername() != null) {
            factory.setUserName(config.getUsername());
            factory.setPassword(config.getPassword());
        }
        factory.setUseAsyncSend(false);
        if (config.isConfirmEachSend()) {
            factory.setAlwaysSyncSend(true);
            factory.setSendTimeout((int) config.getSendTimeout().toMillis());
        } else {
            // sends inside a transaction go out without a round trip each (the client does so only with no send
            // timeout and no forced sync); the commit is synchronous, and a broker that failed one of them
            // (ActiveMQ >= 5.10, rollbackOnlyOnAsyncException, on by default) refuses it: the batch is retried
            factory.setAlwaysSyncSend(false);
            factory.setSendTimeout(0);
        }
        factory.setConnectResponseTimeout((int) config.getSendTimeout().toMillis());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    protected void send(List<Job> jobs, List<Job> delivered, List<SendFailure> failed) {
        SenderSession sender;
        try {
            sender = senderSession();
        } catch (JMSException e) {
            jobs.forEach(job -> failed.add(new SendFailure(job, "no ActiveMQ connection: " + e)));
            return;
        }
        Session session = sender.session();
        try {
            for (Job job : jobs) {
                sender.producer().send(destination(session, job.getTopic()), message(session, job));
                progressed();
            }
            // one commit makes the whole batch durable on the broker: one disk sync instead of one per message
            session.commit();
            delivered.addAll(jobs);
        } catch (JMSException | RuntimeException e) {
            // nothing of an uncommitted batch counts as delivered; the session is rebuilt with the connection
            jobs.forEach(job -> failed.add(new SendFailure(job, e.toString())));
            invalidate(sender.generation());
        }
    }

    private TextMessage message(Session session, Job job) throws JMSException {
        TextMessage message = session.createTextMessage(jobJson ? OriginalJobJson.of(job) : job.getBody());
        message.setStringProperty("jobId", job.getId());
        message.setStringProperty("topic", job.getTopic());
        if (job.getSubtopic() != null) {
            message.setStringProperty("subtopic", job.getSubtopic());
        }
        if (job.getBizKey() != null) {
            message.setStringProperty("bizKey", job.getBizKey());
        }
        message.setLongProperty("dueTime", job.dueTime());
        message.setIntProperty("attempt", job.getAttempts() + 1);
        return message;
    }

    private Destination destination(Session session, String topic) throws JMSException {
        String name = config.getDestinationPrefix() + topic;
        return "topic".equals(config.getDestinationType()) ? session.createTopic(name) : session.createQueue(name);
    }

    private SenderSession senderSession() throws JMSException {
        SenderSession current = sessions.get();
        long gen = currentGeneration();
        if (current != null && current.generation() == gen) {
            return current;
        }
        Connection conn = connection();
        Session session = conn.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer producer = session.createProducer(null);
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        SenderSession created = new SenderSession(currentGeneration(), session, producer);
        sessions.set(created);
        return created;
    }

    private synchronized long currentGeneration() {
        return generation;
    }

    private synchronized Connection connection() throws JMSException {
        if (connection == null) {
            Connection conn = factory.createConnection();
            conn.start();
            connection = conn;
        }
        return connection;
    }

    /** Drops the connection a failed send used, once: the next send opens a new one. */
    private synchronized void invalidate(long failedGeneration) {
        if (failedGeneration != generation) {
            return;
        }
        generation++;
        closeConnection();
    }

    private synchronized void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (JMSException e) {
                log.debug("closing a broken ActiveMQ connection failed (discarded anyway): {}", e.toString());
            }
            connection = null;
        }
    }

    /** A connection of its own, opened and closed: the senders' connection is rebuilt lazily and may not exist yet. */
    @Override
    public void probe(long timeoutMs) throws JMSException {
        Connection probe = factory.createConnection();
        try {
            probe.start();
        } finally {
            probe.close();
        }
    }

    @Override
    protected void closeClient() {
        closeConnection();
    }
}
