package io.mykit.delay.test.brokers;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RocketMQ 4.9.7 name server and broker, each in a child JVM on the 4.9.7 jars alone (the build copies them to
 * {@code target/rocketmq4}, see this module's pom), started by their own main classes with a config file; store and
 * logs in a temp dir. For testing the gateway's 5.x client against a broker of the 4.x line.
 */
public final class TestRocketMq4 implements AutoCloseable {
    public static final String VERSION = "4.9.7";

    private static final Logger log = LoggerFactory.getLogger(TestRocketMq4.class);
    private static final String JAR_DIR = "rocketmq4";
    private static final String LOCALHOST = "127.0.0.1";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xss512k",
            "-Xms64m",
            "-Xmx256m",
            "-XX:MaxDirectMemorySize=256m",
            // TLS "permissive" mode would generate self-signed certificates at start-up
            "-Dtls.server.mode=disabled",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    /** Logs of both servers to their child's output, warnings and worse. */
    private static final String LOGBACK = """
            <configuration>
              <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{0} - %msg%n</pattern></encoder>
              </appender>
              <root level="WARN"><appender-ref ref="out"/></root>
            </configuration>
            """;

    private final Path home;
    private final int namesrvPort;
    private final int brokerPort;
    private final List<ChildJvm> children = new ArrayList<>();
    private RocketMqAdmin admin;

    private TestRocketMq4(Path home, int namesrvPort, int brokerPort) {
        this.home = home;
        this.namesrvPort = namesrvPort;
        this.brokerPort = brokerPort;
    }

    /** Starts both and returns once each listens; fails with the child's log if one does not come up. */
    public static TestRocketMq4 start() {
        String classpath = childClasspath();
        // the broker also listens on its port - 2 (fast channel) and + 1 (HA)
        int brokerPort = FreePorts.freePortWithNeighbours(2, 1);
        int namesrvPort = FreePorts.freePort();
        while (namesrvPort >= brokerPort - 2 && namesrvPort <= brokerPort + 1) {
            namesrvPort = FreePorts.freePort();
        }
        TestRocketMq4 rocketMq = new TestRocketMq4(TempDirs.create("mykit-rocketmq4-"), namesrvPort, brokerPort);
        long begin = System.nanoTime();
        try {
            rocketMq.launch(
                    "namesrv",
                    "org.apache.rocketmq.namesrv.NamesrvStartup",
                    rocketMq.namesrvPort,
                    rocketMq.namesrvConfig(),
                    classpath);
            rocketMq.launch(
                    "broker",
                    "org.apache.rocketmq.broker.BrokerStartup",
                    rocketMq.brokerPort,
                    rocketMq.brokerConfig(),
                    classpath);
            String reported = rocketMq.brokerVersion();
            if (!("V" + VERSION.replace('.', '_')).equals(reported)) {
                throw new IllegalStateException("the broker on the " + VERSION + " jars reports " + reported);
            }
        } catch (RuntimeException e) {
            rocketMq.close();
            throw e;
        }
        log.info(
                "RocketMQ {} name server {} and broker {} up in {} ms (home {})",
                VERSION,
                rocketMq.namesrvAddr(),
                rocketMq.brokerAddr(),
                Duration.ofNanos(System.nanoTime() - begin).toMillis(),
                rocketMq.home);
        return rocketMq;
    }

    public String namesrvAddr() {
        return LOCALHOST + ":" + namesrvPort;
    }

    public String brokerAddr() {
        return LOCALHOST + ":" + brokerPort;
    }

    /** Creates a topic with 4 read/write queues on the broker and waits until the name server routes it. */
    public synchronized void createTopic(String topic) {
        admin().createTopic(brokerAddr(), topic, 4);
    }

    /** The version the running broker reports, e.g. {@code V4_9_7}. */
    public synchronized String brokerVersion() {
        return admin().brokerVersion(brokerAddr());
    }

    private RocketMqAdmin admin() {
        if (admin == null) {
            admin = new RocketMqAdmin(namesrvAddr());
        }
        return admin;
    }

    /** Kills both children and deletes the temp dir. */
    @Override
    public synchronized void close() {
        try {
            if (admin != null) {
                admin.close();
                admin = null;
            }
            children.forEach(ChildJvm::kill);
            children.clear();
        } finally {
            TempDirs.deleteRecursively(home);
        }
    }

    private Properties namesrvConfig() {
        Path dir = home.resolve("namesrv");
        Properties config = new Properties();
        config.setProperty("listenPort", Integer.toString(namesrvPort));
        config.setProperty("rocketmqHome", dir.toString());
        config.setProperty("kvConfigPath", dir.resolve("kvConfig.json").toString());
        config.setProperty("configStorePath", dir.resolve("namesrv.properties").toString());
        return config;
    }

    private Properties brokerConfig() {
        Path dir = home.resolve("broker");
        Path store = dir.resolve("store");
        Properties config = new Properties();
        config.setProperty("brokerClusterName", "MykitTest4Cluster");
        config.setProperty("brokerName", "mykit-test-broker4");
        config.setProperty("brokerId", "0");
        config.setProperty("namesrvAddr", namesrvAddr());
        config.setProperty("brokerIP1", LOCALHOST);
        config.setProperty("listenPort", Integer.toString(brokerPort));
        config.setProperty("haListenPort", Integer.toString(brokerPort + 1));
        config.setProperty("rocketmqHome", dir.toString());
        config.setProperty("storePathRootDir", store.toString());
        config.setProperty("storePathCommitLog", store.resolve("commitlog").toString());
        config.setProperty("mappedFileSizeCommitLog", Integer.toString(64 << 20));
        config.setProperty("mappedFileSizeConsumeQueue", Integer.toString(30_000 * 20));
        config.setProperty("maxIndexNum", "100000");
        config.setProperty("maxHashSlotNum", "50000");
        // a nearly full CI disk must not turn the broker read-only
        config.setProperty("diskMaxUsedSpaceRatio", "95");
        return config;
    }

    /** Writes the role's config and logback files under {@code home/role} and starts its child JVM. */
    private void launch(String role, String mainClass, int port, Properties config, String classpath) {
        Path dir = home.resolve(role);
        Path configFile = dir.resolve(role + ".conf");
        Path readyFile = dir.resolve(role + ".ready");
        try {
            Files.createDirectories(dir.resolve("conf"));
            Files.createDirectories(dir.resolve("tmp"));
            // both servers read their logging set-up from rocketmqHome/conf and refuse to start without it
            Files.writeString(dir.resolve("conf").resolve("logback_" + role + ".xml"), LOGBACK);
            try (OutputStream out = Files.newOutputStream(configFile)) {
                config.store(out, "written by " + TestRocketMq4.class.getName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
        List<String> options = new ArrayList<>(JVM_OPTIONS);
        options.add("-Duser.home=" + dir);
        options.add("-Drocketmq.home.dir=" + dir);
        options.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        ChildJvm child = ChildJvm.launch(
                "rocketmq4-" + role,
                options,
                classpath,
                ListeningChildMain.class.getName(),
                List.of(readyFile.toString(), Integer.toString(port), mainClass, "-c", configFile.toString()),
                home.resolve(role + ".log"));
        children.add(child);
        child.awaitReady(readyFile, READY_TIMEOUT);
    }

    /** The 4.9.7 jars, then the directory holding {@link ListeningChildMain}, and nothing of the 5.x world. */
    private static String childClasspath() {
        Path testClasses;
        try {
            testClasses = Path.of(ListeningChildMain.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the test classes", e);
        }
        Path jarDir = testClasses.resolveSibling(JAR_DIR);
        List<String> entries = new ArrayList<>();
        if (Files.isDirectory(jarDir)) {
            try (Stream<Path> files = Files.list(jarDir)) {
                files.map(Path::toString)
                        .filter(name -> name.endsWith(".jar"))
                        .sorted()
                        .forEach(entries::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + jarDir, e);
            }
        }
        if (entries.stream().noneMatch(name -> name.contains("rocketmq-broker-" + VERSION))) {
            throw new IllegalStateException("no RocketMQ " + VERSION + " jars in " + jarDir + ": the build copies them"
                    + " there in generate-test-resources (maven-dependency-plugin, see mykit-delay-test/pom.xml)");
        }
        entries.add(testClasses.toString());
        return String.join(File.pathSeparator, entries);
    }
}
