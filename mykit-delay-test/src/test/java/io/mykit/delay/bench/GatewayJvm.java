package io.mykit.delay.bench;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import com.sun.tools.attach.VirtualMachine;
import io.mykit.delay.common.model.JobStatus;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * One standalone gateway in a JVM of its own, freshly started as users start it (scenarios 12 and 13): any JDK
 * ({@code -Dbench.java=<JAVA_HOME>}), any JVM options ({@code -Dbench.gateway.jvm-options="..."}, the README's
 * recommended ones by default), this class path, {@link BenchGateway}'s arguments on a fresh key prefix and truncated
 * journal. Its output goes to a log file kept for a post-mortem; it halts when the bench JVM exits (BenchNode).
 * {@code -Dbench.gateway.jar=<path>} starts that runnable jar instead (e.g. the extracted one an AOT cache was trained
 * with, tools/aot-cache); such a JVM is stopped by SIGTERM at the end, not when the bench JVM dies.
 */
final class GatewayJvm implements AutoCloseable {
    private static final long STOP_TIMEOUT_MS = 20_000;

    private final BenchSettings settings;
    private final Process process;
    private final String keyPrefix;
    private final Path log;
    private final String baseUrl;
    private final String javaHome;
    private final List<String> options;
    private final long launchedNanos;
    private final long startToServingMs;
    private JMXConnector jmx;

    private GatewayJvm(
            BenchSettings settings,
            Process process,
            String keyPrefix,
            Path log,
            int port,
            String javaHome,
            List<String> options,
            long launchedNanos,
            long startToServingMs) {
        this.settings = settings;
        this.process = process;
        this.keyPrefix = keyPrefix;
        this.log = log;
        this.baseUrl = "http://127.0.0.1:" + port;
        this.javaHome = javaHome;
        this.options = options;
        this.launchedNanos = launchedNanos;
        this.startToServingMs = startToServingMs;
    }

    /** The JDK and options the settings ask for: {@code bench.java} and {@code bench.gateway.jvm-options}. */
    static GatewayJvm start(BenchSettings settings, Path logDir) throws Exception {
        return start(settings, logDir, settings.text("bench.gateway.jar", ""));
    }

    /** The same, from runnable {@code jar} (the A/B mode's older and current jars); empty: this class path. */
    static GatewayJvm start(BenchSettings settings, Path logDir, String jar) throws Exception {
        String javaHome = settings.text("bench.java", System.getProperty("java.home"));
        String optionText = settings.text("bench.gateway.jvm-options", String.join(" ", BenchJvm.GATEWAY_OPTIONS));
        List<String> options = Arrays.stream(optionText.trim().split("\\s+"))
                .filter(o -> !o.isEmpty())
                .toList();
        BenchGateway.resetDatabase(settings);
        String prefix = BenchGateway.newKeyPrefix();
        Path ready = logDir.resolve(prefix + ".port");
        Path log = logDir.resolve(prefix + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(javaHome, "bin", "java").toString());
        command.addAll(options);
        System.getProperties().stringPropertyNames().stream()
                .filter(key -> key.startsWith("mykit.") || key.startsWith("spring.") || key.startsWith("logging."))
                .sorted()
                .forEach(key -> command.add("-D" + key + "=" + System.getProperty(key)));
        int jarPort = jar.isEmpty() ? 0 : freePort();
        if (jar.isEmpty()) {
            command.add("-cp");
            command.add(BenchJvm.classPath(BenchNode.class));
            command.add(BenchNode.class.getName());
            command.add(ready.toString());
            command.addAll(BenchGateway.arguments(settings, prefix));
        } else {
            // the runnable jar as users start it (an AOT cache applies only to the jar it was trained with)
            command.add("-jar");
            command.add(jar);
            BenchGateway.arguments(settings, prefix).stream()
                    .map(arg -> arg.equals("--server.port=0") ? "--server.port=" + jarPort : arg)
                    .forEach(command::add);
        }
        long launched = System.nanoTime();
        // stdin stays an open pipe from this JVM: BenchNode halts when it closes
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        try {
            int port = jar.isEmpty()
                    ? BenchCluster.awaitPort(process, ready, log)
                    : awaitListening(process, jarPort, log, settings.number("bench.gateway.start-timeout", 300));
            long servingMs = (System.nanoTime() - launched) / 1_000_000;
            return new GatewayJvm(settings, process, prefix, log, port, javaHome, options, launched, servingMs);
        } catch (Exception | Error e) {
            process.destroyForcibly();
            BenchGateway.deleteKeys(settings, prefix);
            throw e;
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * A jar-started gateway writes no port file: it serves once its port accepts a connection. A runnable jar starts
     * slower than the class path, minutes on a machine as busy as a shared CI box: {@code bench.gateway.start-timeout}
     * (seconds).
     */
    private static int awaitListening(Process process, int port, Path log, int timeoutSeconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "gateway exited with " + process.exitValue() + " while starting; see " + log);
            }
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                return port;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        throw new IllegalStateException("gateway not serving on " + port + " within " + timeoutSeconds + " s (-Dbench"
                + ".gateway.start-timeout); see " + log);
    }

    String baseUrl() {
        return baseUrl;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    Path log() {
        return log;
    }

    /** When the JVM was launched ({@link System#nanoTime()}). */
    long launchedNanos() {
        return launchedNanos;
    }

    /** From launching the JVM to the gateway serving HTTP. */
    long startToServingMs() {
        return startToServingMs;
    }

    /** "JDK 25.0.3 (/usr/lib/jvm/...), -XX:+UseZGC ...": what the gateway ran on. */
    String describe() {
        return "JDK " + javaVersion() + " (" + javaHome + "), " + String.join(" ", options);
    }

    private String javaVersion() {
        try {
            return Files.readAllLines(Path.of(javaHome, "release"), StandardCharsets.UTF_8).stream()
                    .filter(line -> line.startsWith("JAVA_VERSION="))
                    .map(line -> line.substring("JAVA_VERSION=".length()).replace("\"", ""))
                    .findFirst()
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    /**
     * Heap in use right after the gateway's last garbage collection (bytes), read over JMX from the gateway's own
     * collector beans: what its live data plus not yet collected old garbage take; -1 before its first GC.
     */
    long heapAfterLastGc() throws IOException {
        MBeanServerConnection connection = jmx().getMBeanServerConnection();
        Set<String> heapPools = ManagementFactory.getPlatformMXBeans(connection, MemoryPoolMXBean.class).stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName)
                .collect(Collectors.toSet());
        GcInfo last = null;
        for (GarbageCollectorMXBean gc :
                ManagementFactory.getPlatformMXBeans(connection, GarbageCollectorMXBean.class)) {
            GcInfo info = gc.getLastGcInfo();
            // ZGC's pause beans report no pool usage; the cycle beans do
            if (info != null
                    && !info.getMemoryUsageAfterGc().isEmpty()
                    && (last == null || info.getEndTime() > last.getEndTime())) {
                last = info;
            }
        }
        if (last == null) {
            return -1;
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool : last.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        return used;
    }

    /** The gateway's JMX, through the JDK's local management agent started in it by the attach API. */
    private JMXConnector jmx() throws IOException {
        if (jmx == null) {
            try {
                VirtualMachine vm = VirtualMachine.attach(Long.toString(process.pid()));
                try {
                    jmx = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
                } finally {
                    vm.detach();
                }
            } catch (com.sun.tools.attach.AttachNotSupportedException e) {
                throw new IOException("cannot attach to the gateway JVM " + process.pid(), e);
            }
        }
        return jmx;
    }

    /** Jobs the journal still holds as WaitPut: pushed, their Stored state not yet written by the journal writer. */
    long notYetStored() throws SQLException {
        try (Connection connection = BenchGateway.journal(settings);
                PreparedStatement query =
                        connection.prepareStatement("SELECT COUNT(*) FROM mykit_delay_queue_job WHERE status = ?")) {
            query.setInt(1, JobStatus.WaitPut.code());
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** Waits until the journal holds no WaitPut row; returns the ms it took, or -1 if not within {@code maxMs}. */
    long awaitStored(long maxMs) throws SQLException, InterruptedException {
        long start = System.currentTimeMillis();
        while (notYetStored() > 0) {
            if (System.currentTimeMillis() - start > maxMs) {
                return -1;
            }
            Thread.sleep(200);
        }
        return System.currentTimeMillis() - start;
    }

    /** SIGTERM (a graceful stop), then the gateway's Redis keys go. */
    @Override
    public void close() throws Exception {
        try {
            if (jmx != null) {
                jmx.close();
            }
        } finally {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            BenchGateway.deleteKeys(settings, keyPrefix);
        }
    }
}
