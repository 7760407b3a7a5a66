package io.mykit.delay.test.brokers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.activemq.broker.BrokerPlugin;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.store.kahadb.KahaDBPersistenceAdapter;
import org.apache.activemq.usage.SystemUsage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real ActiveMQ Classic broker embedded in the test JVM: OpenWire on 127.0.0.1, KahaDB in a temp dir, no JMX.
 * {@link #stop()} and {@link #startAgain()} keep the port and the store, so persistent messages survive an outage and
 * clients can reconnect to the same URL.
 *
 * <pre>{@code
 * try (TestActiveMq mq = TestActiveMq.start()) {
 *     ConnectionFactory cf = new ActiveMQConnectionFactory(mq.brokerUrl());
 *     ...
 *     mq.stop();        // outage: connections drop, sends fail
 *     mq.startAgain();  // same port, same messages
 * }
 * }</pre>
 */
public final class TestActiveMq implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TestActiveMq.class);

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<TestActiveMq> OPEN = ConcurrentHashMap.newKeySet();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final int JOURNAL_FILE_BYTES = 4 << 20;
    private static final long MEMORY_LIMIT_BYTES = 64L << 20;
    private static final long STORE_LIMIT_BYTES = 512L << 20;
    /** The bench's broker holds a drain of 1M messages (about 530 B each in KahaDB) before its consumer reads them. */
    private static final long BENCH_STORE_LIMIT_BYTES = 8L << 30;

    private static final long TEMP_LIMIT_BYTES = 256L << 20;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TestActiveMq::closeAllOpen, "activemq-test-cleanup"));
    }

    private final String brokerName;
    private final Path dataDir;
    private final int port;
    private final boolean diskSyncEveryWrite;
    private final long storeLimitBytes;
    private final BrokerPlugin[] plugins;
    private BrokerService broker;
    private boolean closed;

    private TestActiveMq(
            String brokerName,
            Path dataDir,
            int port,
            boolean diskSyncEveryWrite,
            long storeLimitBytes,
            BrokerPlugin[] plugins) {
        this.brokerName = brokerName;
        this.dataDir = dataDir;
        this.port = port;
        this.diskSyncEveryWrite = diskSyncEveryWrite;
        this.storeLimitBytes = storeLimitBytes;
        this.plugins = plugins;
    }

    /** Starts a new broker on a free port of 127.0.0.1 with an empty store; fails if it does not come up. */
    public static TestActiveMq start(BrokerPlugin... plugins) {
        return start(false, STORE_LIMIT_BYTES, plugins);
    }

    /**
     * For the bench: a store that holds a million-message drain, with ActiveMQ's production default of a disk sync per
     * journal write unless {@code diskSyncEveryWrite} is false.
     */
    public static TestActiveMq startForBench(boolean diskSyncEveryWrite) {
        return start(diskSyncEveryWrite, BENCH_STORE_LIMIT_BYTES);
    }

    private static TestActiveMq start(boolean diskSyncEveryWrite, long storeLimitBytes, BrokerPlugin... plugins) {
        TestActiveMq mq = new TestActiveMq(
                "mykit-test-amq-" + SEQUENCE.incrementAndGet(),
                TempDirs.create("mykit-activemq-"),
                FreePorts.freePort(),
                diskSyncEveryWrite,
                storeLimitBytes,
                plugins);
        OPEN.add(mq);
        try {
            mq.startAgain();
        } catch (RuntimeException e) {
            mq.close();
            throw e;
        }
        return mq;
    }

    /** {@code tcp://127.0.0.1:port}: fails fast while the broker is down. */
    public String brokerUrl() {
        return "tcp://127.0.0.1:" + port;
    }

    /** A failover URL over {@link #brokerUrl()} that reconnects within half a second of the broker's return. */
    public String failoverUrl() {
        return "failover:(" + brokerUrl() + ")?initialReconnectDelay=50&maxReconnectDelay=500";
    }

    public int port() {
        return port;
    }

    public String brokerName() {
        return brokerName;
    }

    public synchronized boolean isRunning() {
        return broker != null && broker.isStarted();
    }

    /** Starts the broker (again) on the same port and store; no-op when it is running. */
    public synchronized void startAgain() {
        if (closed) {
            throw new IllegalStateException(brokerName + " is closed");
        }
        if (isRunning()) {
            return;
        }
        long begin = System.nanoTime();
        BrokerService service = newBrokerService();
        try {
            service.start();
        } catch (Exception e) {
            throw new IllegalStateException("ActiveMQ broker " + brokerName + " failed to start on " + brokerUrl(), e);
        }
        if (!service.waitUntilStarted(START_TIMEOUT.toMillis())) {
            throw new IllegalStateException("ActiveMQ broker " + brokerName + " did not start within " + START_TIMEOUT);
        }
        broker = service;
        log.info("ActiveMQ {} up on {} in {} ms (store {})", brokerName, brokerUrl(), millisSince(begin), dataDir);
    }

    /** Stops the broker; its store stays on disk and {@link #startAgain()} listens on the same port. */
    public synchronized void stop() {
        if (broker == null) {
            return;
        }
        long begin = System.nanoTime();
        try {
            broker.stop();
        } catch (Exception e) {
            throw new IllegalStateException("ActiveMQ broker " + brokerName + " failed to stop", e);
        }
        broker.waitUntilStopped();
        broker = null;
        log.info("ActiveMQ {} stopped in {} ms", brokerName, millisSince(begin));
    }

    /** {@link #stop()} then {@link #startAgain()}. */
    public synchronized void restart() {
        stop();
        startAgain();
    }

    /** Stops the broker and deletes its store. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            stop();
        } finally {
            closed = true;
            OPEN.remove(this);
            TempDirs.deleteRecursively(dataDir);
        }
    }

    private BrokerService newBrokerService() {
        BrokerService service = new BrokerService();
        service.setBrokerName(brokerName);
        service.setUseJmx(false);
        service.setUseShutdownHook(false);
        service.setSchedulerSupport(false);
        service.setPersistent(true);
        service.setDataDirectoryFile(dataDir.toFile());
        service.setTmpDataDirectory(dataDir.resolve("tmp").toFile());
        if (plugins.length > 0) {
            service.setPlugins(plugins);
        }
        try {
            service.setPersistenceAdapter(kahaDb());
            service.addConnector(brokerUrl());
        } catch (Exception e) {
            throw new IllegalStateException("cannot configure ActiveMQ broker " + brokerName, e);
        }
        // the defaults (1 GB memory, 100 GB store) exceed what a test needs and what the disk may hold
        SystemUsage usage = service.getSystemUsage();
        usage.getMemoryUsage().setLimit(MEMORY_LIMIT_BYTES);
        usage.getStoreUsage().setLimit(storeLimitBytes);
        usage.getTempUsage().setLimit(TEMP_LIMIT_BYTES);
        return service;
    }

    private KahaDBPersistenceAdapter kahaDb() {
        KahaDBPersistenceAdapter kahaDb = new KahaDBPersistenceAdapter();
        kahaDb.setDirectory(dataDir.resolve("kahadb").toFile());
        kahaDb.setJournalMaxFileLength(JOURNAL_FILE_BYTES);
        if (!diskSyncEveryWrite) {
            // a graceful stop flushes the journal; fsync on every send would only slow the tests
            kahaDb.setJournalDiskSyncStrategy("periodic");
        }
        return kahaDb;
    }

    private static void closeAllOpen() {
        for (TestActiveMq mq : OPEN) {
            mq.close();
        }
    }

    private static long millisSince(long nanoTime) {
        return Duration.ofNanos(System.nanoTime() - nanoTime).toMillis();
    }
}
