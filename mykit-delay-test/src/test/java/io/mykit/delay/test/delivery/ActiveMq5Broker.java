package io.mykit.delay.test.delivery;

import io.mykit.delay.test.brokers.FreePorts;
import io.mykit.delay.test.brokers.TempDirs;
import io.mykit.delay.test.support.TestFiles;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real ActiveMQ Classic 5.x broker (the javax.jms line) in a child JVM: its classes cannot share the test JVM with
 * the 6.x ones. The child runs {@link ActiveMq5BrokerMain} on the {@code activemq-all} and Log4j jars that the build
 * copies to {@code target/activemq5} (see this module's pom); OpenWire on 127.0.0.1, KahaDB in a temp dir, no JMX.
 *
 * <p>{@link #crash()} kills the child with SIGKILL; {@link #startAgain()} starts a new one on the same port and store.
 * The child also halts when the test JVM dies (its stdin pipe closes), and a shutdown hook kills it.
 *
 * <pre>{@code
 * try (ActiveMq5Broker amq5 = ActiveMq5Broker.start()) {
 *     new ActiveMQConnectionFactory(amq5.brokerUrl());  // the 6.x client speaks OpenWire to it
 *     amq5.crash();
 *     amq5.startAgain();                                 // same port, same messages
 * }
 * }</pre>
 */
final class ActiveMq5Broker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ActiveMq5Broker.class);

    private static final String JAR_DIR = "activemq5";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(20);
    private static final List<String> JVM_OPTIONS =
            List.of("-Xms32m", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
    // below Linux's ephemeral range: an outgoing connection cannot take the port while the broker is down

    private static final Set<ActiveMq5Broker> OPEN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> OPEN.forEach(ActiveMq5Broker::close), "activemq5-test-cleanup"));
    }

    private final String classpath;
    private final int port;
    private final String brokerName;
    private final Path dir;
    private Process process;
    private String version;
    private int starts;
    private boolean closed;

    private ActiveMq5Broker(String classpath, int port, Path dir) {
        this.classpath = classpath;
        this.port = port;
        this.brokerName = "mykit-amq5-" + port;
        this.dir = dir;
    }

    /** Starts a broker on a free port with an empty store; fails with the child's log if it does not come up. */
    static ActiveMq5Broker start() {
        String classpath = childClasspath();
        Path dir = TempDirs.create("mykit-activemq5-");
        ActiveMq5Broker broker = new ActiveMq5Broker(classpath, FreePorts.freePort(), dir);
        OPEN.add(broker);
        try {
            broker.startAgain();
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    /** {@code tcp://127.0.0.1:port}: fails fast while the broker is down. */
    String brokerUrl() {
        return "tcp://127.0.0.1:" + port;
    }

    String brokerName() {
        return brokerName;
    }

    /** The broker's own version, as its child JVM reported it (e.g. 5.18.6). */
    synchronized String version() {
        return version;
    }

    /** Starts the child JVM (again) on the same port and store; no-op while it runs. */
    synchronized void startAgain() {
        if (closed) {
            throw new IllegalStateException(brokerName + " is closed");
        }
        if (process != null && process.isAlive()) {
            return;
        }
        long begin = System.nanoTime();
        starts++;
        Path readyFile = dir.resolve("ready-" + starts);
        Path logFile = dir.resolve("broker.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-Djava.io.tmpdir=" + dir);
        command.add("-cp");
        command.add(classpath);
        command.add(ActiveMq5BrokerMain.class.getName());
        command.addAll(
                List.of(Integer.toString(port), brokerName, dir.resolve("data").toString(), readyFile.toString()));
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the ActiveMQ 5 child JVM: " + command, e);
        }
        version = awaitReady(readyFile, logFile);
        log.info(
                "ActiveMQ {} ({}) up on {} in {} ms, pid {}",
                version,
                brokerName,
                brokerUrl(),
                millisSince(begin),
                process.pid());
    }

    /** SIGKILL: the broker stops like a crashed machine; what it confirmed is in its KahaDB journal. */
    synchronized void crash() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        brokerName + " (pid " + process.pid() + ") still alive " + KILL_TIMEOUT + " after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + brokerName + " to die", e);
        }
        process = null;
    }

    /** Kills the child and deletes its store and log. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            crash();
        } finally {
            closed = true;
            OPEN.remove(this);
            TempDirs.deleteRecursively(dir);
        }
    }

    private String awaitReady(Path readyFile, Path logFile) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!Files.exists(readyFile)) {
            if (!process.isAlive()) {
                String reason = brokerName + " exited with code " + process.exitValue() + " before it was ready";
                process = null;
                throw new IllegalStateException(reason + "; log " + logFile + ":\n" + TestFiles.tail(logFile));
            }
            if (System.nanoTime() > deadline) {
                crash();
                throw new IllegalStateException(brokerName + " was not ready within " + READY_TIMEOUT
                        + "; killed it; log " + logFile + ":\n" + TestFiles.tail(logFile));
            }
            sleep(POLL);
        }
        try {
            return Files.readString(readyFile, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + readyFile, e);
        }
    }

    /** The 5.x jar(s) first, then the directory holding {@link ActiveMq5BrokerMain}, and nothing of the 6.x world. */
    private static String childClasspath() {
        Path testClasses;
        try {
            testClasses = Path.of(ActiveMq5BrokerMain.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the test classes", e);
        }
        Path jarDir = testClasses.resolveSibling(JAR_DIR);
        List<String> jars;
        try (Stream<Path> files = Files.list(jarDir)) {
            jars = files.filter(file -> file.getFileName().toString().endsWith(".jar"))
                    .map(Path::toString)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "no ActiveMQ 5 jars in " + jarDir + ": the build copies them there in"
                            + " generate-test-resources (maven-dependency-plugin, see mykit-delay-test/pom.xml)",
                    e);
        }
        if (jars.isEmpty()) {
            throw new IllegalStateException("no ActiveMQ 5 jars in " + jarDir + ": the build copies them there in"
                    + " generate-test-resources (maven-dependency-plugin, see mykit-delay-test/pom.xml)");
        }
        List<String> entries = new ArrayList<>(jars);
        entries.add(testClasses.toString());
        return String.join(File.pathSeparator, entries);
    }

    private static long millisSince(long nanoTime) {
        return Duration.ofNanos(System.nanoTime() - nanoTime).toMillis();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
