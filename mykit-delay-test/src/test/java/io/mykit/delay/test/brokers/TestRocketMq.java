package io.mykit.delay.test.brokers;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real RocketMQ 5.5 name server and broker for the tests of one JVM, each in a child JVM started from the test
 * classpath (see {@link RocketMqChildMain}); ports on 127.0.0.1, store and logs in a temp dir.
 *
 * <p>{@link #start()} starts them on first use and returns the same instance afterwards; they are killed when the test
 * JVM exits. {@link #stopBroker()} kills the broker like a crash (SIGKILL), {@link #startBroker()} starts it again on
 * the same ports and store: topics, messages and consumer offsets are kept (offsets flushed less than a second before
 * the kill at most are redelivered).
 *
 * <pre>{@code
 * TestRocketMq rocketMq = TestRocketMq.start();
 * rocketMq.createTopic("orders");             // before any consumer subscribes to it
 * producer.setNamesrvAddr(rocketMq.namesrvAddr());
 * }</pre>
 */
public final class TestRocketMq {

    private static final Logger log = LoggerFactory.getLogger(TestRocketMq.class);

    private static final String CLUSTER = "MykitTestCluster";
    private static final String BROKER_NAME = "mykit-test-broker";
    private static final String LOCALHOST = "127.0.0.1";
    private static final int DEFAULT_QUEUES = 4;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private static final List<String> COMMON_JVM_OPTIONS = List.of(
            "-Xss512k",
            // TLS "permissive" mode would generate self-signed RSA certificates: seconds of start-up
            "-Dtls.server.mode=disabled",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    private static final List<String> NAMESRV_HEAP = List.of("-Xms32m", "-Xmx128m");
    // the timer wheel and the mapped files need direct memory beyond the heap
    private static final List<String> BROKER_HEAP = List.of("-Xms64m", "-Xmx256m", "-XX:MaxDirectMemorySize=256m");

    private static final String LOGBACK_CONFIG = "rmq.logback.configurationFile";
    private static final String LOG_ROOT = "rocketmq.log.root";
    private static final String REBALANCE_INTERVAL = "rocketmq.client.rebalance.waitInterval";

    private static TestRocketMq shared;

    /** How the name server and broker JVMs compile and collect. */
    public enum JvmProfile {
        /** C1 only and the serial collector: up in seconds, for tests. */
        FAST_START(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")),
        /**
         * Full tiered compilation and G1 with a 10 ms pause goal, as a broker runs in production: for the bench, where
         * C1-only code costs the shared cores more CPU per message.
         */
        SERVER(List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=10"));

        private final List<String> options;

        JvmProfile(List<String> options) {
            this.options = options;
        }
    }

    static {
        // RocketMQ's logging picks the first rmq.*.logback.xml on the classpath, here the broker's,
        // which writes under ~/logs: the clients of this JVM get the client's, under the build dir
        if (System.getProperty(LOGBACK_CONFIG) == null) {
            System.setProperty(LOGBACK_CONFIG, "rmq.client.logback.xml");
        }
        // a push consumer whose first rebalance finds no queues (its heartbeat not yet seen by the
        // broker) otherwise waits 20 s for the next one
        if (System.getProperty(REBALANCE_INTERVAL) == null) {
            System.setProperty(REBALANCE_INTERVAL, "1000");
        }
        if (System.getProperty(LOG_ROOT) == null) {
            Path buildDir = Path.of("target");
            Path logRoot = Files.isDirectory(buildDir)
                    ? buildDir.resolve("rocketmq-client-logs").toAbsolutePath()
                    : TempDirs.create("mykit-rocketmq-client-logs-");
            System.setProperty(LOG_ROOT, logRoot.toString());
        }
    }

    private final Path home;
    private final JvmProfile profile;
    private final int namesrvPort;
    private final int brokerPort;
    private ChildJvm namesrv;
    private ChildJvm broker;
    private RocketMqAdmin admin;
    private boolean stopped;

    private TestRocketMq(Path home, int namesrvPort, int brokerPort, JvmProfile profile) {
        this.home = home;
        this.profile = profile;
        this.namesrvPort = namesrvPort;
        this.brokerPort = brokerPort;
    }

    /**
     * The name server and broker of this JVM, started on first call (and again after {@link #stop()}); also starts the
     * broker again if a test left it stopped. Fails if either does not come up.
     */
    public static TestRocketMq start() {
        return start(JvmProfile.FAST_START);
    }

    /**
     * As {@link #start()}, with the given JVM profile for a name server and broker started now; one already running
     * keeps its own.
     */
    public static synchronized TestRocketMq start(JvmProfile profile) {
        if (shared == null) {
            int brokerPort = FreePorts.freePortWithNeighbours(2, 1);
            int namesrvPort = FreePorts.freePort();
            while (namesrvPort >= brokerPort - 2 && namesrvPort <= brokerPort + 1) {
                namesrvPort = FreePorts.freePort();
            }
            TestRocketMq rocketMq =
                    new TestRocketMq(TempDirs.create("mykit-rocketmq-"), namesrvPort, brokerPort, profile);
            Runtime.getRuntime().addShutdownHook(new Thread(rocketMq::stop, "rocketmq-test-shutdown"));
            rocketMq.startAll();
            shared = rocketMq;
        }
        shared.startBroker();
        return shared;
    }

    /** {@code 127.0.0.1:port} of the name server, for {@code setNamesrvAddr}. */
    public String namesrvAddr() {
        return LOCALHOST + ":" + namesrvPort;
    }

    /** {@code 127.0.0.1:port} of the broker. */
    public String brokerAddr() {
        return LOCALHOST + ":" + brokerPort;
    }

    public String clusterName() {
        return CLUSTER;
    }

    public String brokerName() {
        return BROKER_NAME;
    }

    /** The temp dir holding the store ({@code broker/store}) and the logs ({@code *.log}, {@code broker/logs}). */
    public Path home() {
        return home;
    }

    public synchronized boolean isBrokerRunning() {
        return broker != null && broker.isAlive();
    }

    /** Creates (or updates) a topic with 4 read/write queues and waits until the name server routes it. */
    public void createTopic(String topic) {
        createTopic(topic, DEFAULT_QUEUES);
    }

    /** Creates (or updates) a topic and waits until the name server routes it. */
    public synchronized void createTopic(String topic, int queues) {
        requireBroker();
        long begin = System.nanoTime();
        admin().createTopic(brokerAddr(), topic, queues);
        log.info("RocketMQ topic {} ({} queues) routed in {} ms", topic, queues, millisSince(begin));
    }

    /** Kills the broker JVM (SIGKILL, like a crash) and waits until it is gone; the name server stays up. */
    public synchronized void stopBroker() {
        if (broker == null) {
            return;
        }
        long begin = System.nanoTime();
        broker.kill();
        broker = null;
        log.info("RocketMQ broker killed in {} ms", millisSince(begin));
    }

    /** Starts the broker on the same ports and store; returns once the name server lists it. No-op when running. */
    public synchronized void startBroker() {
        requireNotStopped();
        if (isBrokerRunning()) {
            return;
        }
        long begin = System.nanoTime();
        broker = launchBroker();
        awaitReady(broker, "broker");
        log.info("RocketMQ broker up on {} in {} ms", brokerAddr(), millisSince(begin));
    }

    /** {@link #stopBroker()} then {@link #startBroker()}. */
    public synchronized void restartBroker() {
        stopBroker();
        startBroker();
    }

    /** Kills the name server and the broker and deletes the temp dir; the next {@link #start()} starts afresh. */
    public void stop() {
        synchronized (TestRocketMq.class) {
            synchronized (this) {
                if (stopped) {
                    return;
                }
                stopped = true;
                if (shared == this) {
                    shared = null;
                }
                if (admin != null) {
                    admin.close();
                    admin = null;
                }
                stopBroker();
                if (namesrv != null) {
                    namesrv.kill();
                    namesrv = null;
                }
                TempDirs.deleteRecursively(home);
            }
        }
    }

    private void startAll() {
        long begin = System.nanoTime();
        try {
            // both JVMs boot in parallel; the broker keeps registering until the name server answers
            namesrv = launchNameServer();
            broker = launchBroker();
            awaitReady(namesrv, "namesrv");
            awaitReady(broker, "broker");
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
        log.info(
                "RocketMQ name server {} and broker {} up in {} ms (home {})",
                namesrvAddr(),
                brokerAddr(),
                millisSince(begin),
                home);
    }

    private ChildJvm launchNameServer() {
        Path dir = home.resolve("namesrv");
        Properties config = new Properties();
        config.setProperty("listenPort", Integer.toString(namesrvPort));
        config.setProperty("bindAddress", LOCALHOST);
        config.setProperty("rocketmqHome", dir.toString());
        config.setProperty("kvConfigPath", dir.resolve("kvConfig.json").toString());
        config.setProperty("configStorePath", dir.resolve("namesrv.properties").toString());
        return launch(RocketMqChildMain.NAMESRV, dir, NAMESRV_HEAP, config);
    }

    private ChildJvm launchBroker() {
        Path dir = home.resolve("broker");
        Path store = dir.resolve("store");
        Properties config = new Properties();
        config.setProperty("brokerClusterName", CLUSTER);
        config.setProperty("brokerName", BROKER_NAME);
        config.setProperty("brokerId", "0");
        config.setProperty("namesrvAddr", namesrvAddr());
        config.setProperty("brokerIP1", LOCALHOST);
        config.setProperty("bindAddress", LOCALHOST);
        // the broker also listens on listenPort - 2 (fast channel) and listenPort + 1 (HA)
        config.setProperty("listenPort", Integer.toString(brokerPort));
        config.setProperty("haListenPort", Integer.toString(brokerPort + 1));
        config.setProperty("autoCreateTopicEnable", "true");
        config.setProperty("autoCreateSubscriptionGroup", "true");
        config.setProperty("rocketmqHome", dir.toString());
        config.setProperty("brokerConfigPath", dir.resolve("broker.properties").toString());
        config.setProperty("storePathRootDir", store.toString());
        config.setProperty("storePathCommitLog", store.resolve("commitlog").toString());
        config.setProperty("mappedFileSizeCommitLog", Integer.toString(64 << 20));
        config.setProperty("mappedFileSizeConsumeQueue", Integer.toString(30_000 * 20));
        config.setProperty("mappedFileSizeTimerLog", Integer.toString(16 << 20));
        config.setProperty("maxIndexNum", "100000");
        config.setProperty("maxHashSlotNum", "50000");
        // a nearly full CI disk must not turn the broker read-only
        config.setProperty("diskMaxUsedSpaceRatio", "95");
        config.setProperty("diskSpaceWarningLevelRatio", "98");
        config.setProperty("diskSpaceCleanForciblyRatio", "97");
        // offsets survive a kill with at most 1 s of redelivery
        config.setProperty("flushConsumerOffsetInterval", "1000");
        // the gateway delays messages itself: the broker's timer wheel only costs an idle broker 12% of a core
        config.setProperty("timerWheelEnable", "false");
        return launch(RocketMqChildMain.BROKER, dir, BROKER_HEAP, config);
    }

    private ChildJvm launch(String role, Path dir, List<String> heap, Properties config) {
        Path configFile = dir.resolve(role + ".conf");
        Path readyFile = dir.resolve(role + ".ready");
        Path tmp = dir.resolve("tmp");
        try {
            Files.createDirectories(tmp);
            Files.deleteIfExists(readyFile);
            try (OutputStream out = Files.newOutputStream(configFile)) {
                config.store(out, "written by " + TestRocketMq.class.getName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
        List<String> options = new ArrayList<>(profile.options);
        options.addAll(COMMON_JVM_OPTIONS);
        options.addAll(heap);
        // RocketMQ writes its logs (and RocksDB its files) under user.home and rocketmq.log.root
        options.add("-Duser.home=" + dir);
        options.add("-Drocketmq.home.dir=" + dir);
        options.add("-D" + LOG_ROOT + "=" + dir.resolve("logs"));
        options.add("-D" + LOGBACK_CONFIG + "=rmq." + role + ".logback.xml");
        options.add("-Djava.io.tmpdir=" + tmp);
        return ChildJvm.launch(
                "rocketmq-" + role,
                options,
                RocketMqChildMain.class,
                List.of(role, configFile.toString(), readyFile.toString()),
                home.resolve(role + ".log"));
    }

    private void awaitReady(ChildJvm child, String role) {
        String address = child.awaitReady(home.resolve(role).resolve(role + ".ready"), READY_TIMEOUT);
        String expected = RocketMqChildMain.NAMESRV.equals(role) ? namesrvAddr() : brokerAddr();
        if (!expected.equals(address)) {
            throw new IllegalStateException("rocketmq " + role + " reports " + address + ", expected " + expected);
        }
    }

    private RocketMqAdmin admin() {
        if (admin == null) {
            admin = new RocketMqAdmin(namesrvAddr());
        }
        return admin;
    }

    private void requireBroker() {
        requireNotStopped();
        if (!isBrokerRunning()) {
            throw new IllegalStateException("RocketMQ broker is stopped; call startBroker() first");
        }
    }

    private void requireNotStopped() {
        if (stopped) {
            throw new IllegalStateException("this TestRocketMq was stopped; call TestRocketMq.start()");
        }
    }

    private static long millisSince(long nanoTime) {
        return Duration.ofNanos(System.nanoTime() - nanoTime).toMillis();
    }
}
