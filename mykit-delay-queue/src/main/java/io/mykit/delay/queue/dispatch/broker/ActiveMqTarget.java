package io.mykit.delay.queue.dispatch.broker;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.SendFailure;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.activemq.ActiveMQConnectionFactory;

/**
 * Sends due jobs to ActiveMQ (OpenWire, Classic 5.x and 6.x alike): topic -> queue (or JMS topic), persistent. Each
 * pumped batch goes out in one local transaction and counts as delivered only once the broker confirmed the commit. One
 * connection; each sender thread keeps its own transacted session and producer. A failed connection is rebuilt on the
 * next send; with a {@code failover:} URL the client also reconnects by itself.
 *
 * <p>A connection's start gives up after the send timeout: the client's own connect-response timeout does not cover a
 * {@code failover:} transport with no broker to reach, whose start would wait for ever. No lock is held across a call
 * into the client: one sender opens the connection at a time ({@link #opening}) and {@link #state} guards only the
 * fields, so closing the client never waits for a sender blocked in a start, a send or a commit; the close fails those
 * calls instead.
 */
public class ActiveMqTarget extends BrokerTarget {
    public static final String NAME = "activemq";
    /** Longest a close waits for the broker to answer the connection's removal (a hung broker never does). */
    private static final long CLOSE_ANSWER_WAIT_MS = 1_000;

    private static final String CLOSED = "the ActiveMQ target is closed";

    private final ActiveMqSettings settings;
    private final long sendTimeoutMs;
    private final ActiveMQConnectionFactory factory;
    private final ThreadLocal<SenderSession> sessions = new ThreadLocal<>();
    /** Closes a connection whose start outlasts its timeout; the start then fails at once. */
    private final ScheduledExecutorService startWatch = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "mykit-activemq-start-watch");
        thread.setDaemon(true);
        return thread;
    });

    private final ReentrantLock opening = new ReentrantLock();
    private final Object state = new Object();
    /** The senders' connection; guarded by {@link #state}, like every field below. */
    private Connection connection;
    /** A connection a sender is starting, closed by {@link #closeClient} too. */
    private Connection starting;

    private long generation;
    private boolean clientClosed;
    /** Opening attempts that failed, and the last failure: senders that waited for one fail with it. */
    private long failedOpens;

    private String lastOpenFailure;

    /** A sender thread's session, valid while the connection generation it was made on is current. */
    private record SenderSession(long generation, Session session, MessageProducer producer) {}

    public ActiveMqTarget(ActiveMqSettings settings, SenderSettings senders, DeliveryOutcomes outcomes) {
        super(NAME, senders, outcomes);
        this.settings = settings;
        this.sendTimeoutMs = settings.sendTimeout().toMillis();
        this.factory = new ActiveMQConnectionFactory(settings.brokerUrl());
        if (settings.username() != null) {
            factory.setUserName(settings.username());
            factory.setPassword(settings.password());
        }
        factory.setUseAsyncSend(false);
        if (settings.confirmEachSend()) {
            factory.setAlwaysSyncSend(true);
            factory.setSendTimeout((int) sendTimeoutMs);
        } else {
            // sends inside a transaction go out without a round trip each (the client does so only with no send
            // timeout and no forced sync); the commit is synchronous, and a broker that failed one of them
            // (ActiveMQ >= 5.10, rollbackOnlyOnAsyncException, on by default) refuses it: the batch is retried
            factory.setAlwaysSyncSend(false);
            factory.setSendTimeout(0);
        }
        factory.setConnectResponseTimeout((int) sendTimeoutMs);
        factory.setCloseTimeout((int) Math.min(sendTimeoutMs, CLOSE_ANSWER_WAIT_MS));
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
        TextMessage message = session.createTextMessage(settings.jobJson() ? OriginalJobJson.of(job) : job.getBody());
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
        String name = settings.destinationPrefix() + topic;
        return settings.topics() ? session.createTopic(name) : session.createQueue(name);
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

    private long currentGeneration() {
        synchronized (state) {
            return generation;
        }
    }

    /** The senders' connection, opened (by one sender at a time, outside {@link #state}) when there is none. */
    private Connection connection() throws JMSException {
        long failedBefore;
        synchronized (state) {
            failedBefore = failedOpens;
        }
        try {
            opening.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while another sender opens the ActiveMQ connection");
        }
        try {
            synchronized (state) {
                if (connection != null) {
                    return connection;
                }
                if (clientClosed) {
                    throw new JMSException(CLOSED);
                }
                if (failedOpens != failedBefore) {
                    // the broker did not answer the sender this one waited for: one wait per attempt, not one each
                    throw new JMSException("opening the ActiveMQ connection failed: " + lastOpenFailure);
                }
            }
            return open();
        } finally {
            opening.unlock();
        }
    }

    /** Opens and starts a connection, counting a failure for the senders that waited for this attempt. */
    private Connection open() throws JMSException {
        Connection conn = null;
        try {
            conn = factory.createConnection();
            track(conn);
            startWithin(conn, sendTimeoutMs);
            keep(conn);
            return conn;
        } catch (JMSException | RuntimeException e) {
            synchronized (state) {
                failedOpens++;
                lastOpenFailure = e.toString();
            }
            if (conn != null) {
                untrack(conn);
                closeQuietly(conn);
            }
            throw e;
        }
    }

    /** Starts {@code conn}, closing it when the start has not returned within {@code timeoutMs}: it then fails. */
    private void startWithin(Connection conn, long timeoutMs) throws JMSException {
        if (timeoutMs <= 0) {
            // a send timeout of 0 is the client's "no timeout"
            conn.start();
            return;
        }
        AtomicBoolean over = new AtomicBoolean();
        ScheduledFuture<?> giveUp = startWatch.schedule(
                () -> {
                    if (over.compareAndSet(false, true)) {
                        log.warn(
                                "no answer from ActiveMQ at {} within {} ms: the connection's start gives up",
                                settings.brokerUrl(),
                                timeoutMs);
                        closeQuietly(conn);
                    }
                },
                timeoutMs,
                TimeUnit.MILLISECONDS);
        try {
            conn.start();
        } finally {
            giveUp.cancel(false);
        }
        if (!over.compareAndSet(false, true)) {
            // started just as the watch closed it
            throw new JMSException("no answer from ActiveMQ within " + timeoutMs + " ms");
        }
    }

    /** Makes {@code conn} the connection being started, which {@link #closeClient} closes too. */
    private void track(Connection conn) throws JMSException {
        synchronized (state) {
            if (clientClosed) {
                throw new JMSException(CLOSED);
            }
            starting = conn;
        }
    }

    /** Makes the started {@code conn} the senders' connection, unless the client was closed meanwhile. */
    private void keep(Connection conn) throws JMSException {
        synchronized (state) {
            starting = null;
            if (clientClosed) {
                throw new JMSException(CLOSED);
            }
            connection = conn;
        }
    }

    private void untrack(Connection conn) {
        synchronized (state) {
            if (starting == conn) {
                starting = null;
            }
        }
    }

    /** Drops the connection a failed send used, once: the next send opens a new one. */
    private void invalidate(long failedGeneration) {
        Connection failed;
        synchronized (state) {
            if (failedGeneration != generation) {
                return;
            }
            generation++;
            failed = connection;
            connection = null;
        }
        closeQuietly(failed);
    }

    private void closeQuietly(Connection conn) {
        if (conn == null) {
            return;
        }
        try {
            conn.close();
        } catch (JMSException | RuntimeException e) {
            log.debug("closing an ActiveMQ connection failed (discarded anyway): {}", e.toString());
        }
    }

    /**
     * A connection of its own, opened and closed: the senders' connection is rebuilt lazily and may not exist yet. Its
     * start gives up within {@code timeoutMs}, so no probe thread waits for an absent broker for ever.
     */
    @Override
    public void probe(long timeoutMs) throws JMSException {
        Connection probe = factory.createConnection();
        try {
            startWithin(probe, timeoutMs);
        } finally {
            probe.close();
        }
    }

    /** Closes the connection and one still starting, which fails the calls of senders blocked in them. */
    @Override
    protected void closeClient() {
        Connection open;
        Connection opened;
        synchronized (state) {
            clientClosed = true;
            generation++;
            open = connection;
            opened = starting;
            connection = null;
            starting = null;
        }
        // the watches already set still run: a probe under way still gives up in time
        startWatch.shutdown();
        closeQuietly(opened);
        closeQuietly(open);
    }
}
