package io.mykit.delay.test.chaos;

import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.support.TestServers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The packaged gateway ({@code mykit-delay.jar}) as a child JVM that can be killed with SIGKILL, stopped with SIGTERM,
 * frozen with SIGSTOP and thawed with SIGCONT, and started again on the same port and configuration. Each start writes
 * its own log file, kept for a post-mortem.
 */
public final class ChildGateway implements AutoCloseable {

    static final Path JAR = Path.of("..", "mykit-delay-core", "target", "mykit-delay.jar");

    /** Exit status the JDK reports for a process ended by signal 9 (128 + 9). */
    public static final int SIGKILL_EXIT = 137;

    // a child JVM starting beside three loaded gateways on 2 cores once needed more than a minute
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration PROBE_PAUSE = Duration.ofMillis(100);
    private static final int LOG_TAIL_LINES = 40;
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        // a test JVM that ends abruptly must not leave a gateway holding its port and Redis
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "chaos-gateway-cleanup"));
    }

    private final List<String> command;
    private final int port;
    private final Path logDir;
    private final HttpClient probe =
            HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
    private Process process;
    private int starts;

    private ChildGateway(List<String> command, int port, Path logDir) {
        this.command = command;
        this.port = port;
        this.logDir = logDir;
    }

    /** A gateway on {@code port} with these JVM options and {@code --key=value} arguments; not started yet. */
    public static ChildGateway of(int port, List<String> jvmOptions, List<String> arguments, Path logDir) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(
                    "The runnable jar " + JAR.toAbsolutePath().normalize()
                            + " is missing: build mykit-delay-core first (mvn -pl mykit-delay-core -am package)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(JAR.toAbsolutePath().normalize().toString());
        command.add("--server.port=" + port);
        command.addAll(arguments);
        return new ChildGateway(List.copyOf(command), port, logDir);
    }

    public String baseUrl() {
        return "http://" + TestServers.LOCALHOST + ":" + port;
    }

    /** Starts a new JVM and returns once it answers HTTP; fails with its log if it exits or stays silent. */
    public void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("gateway pid " + process.pid() + " is still running");
        }
        Path log = logDir.resolve("gateway-" + (++starts) + ".log");
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        LIVE.add(process);
        Process starting = process;
        try {
            await().atMost(START_TIMEOUT).pollInterval(PROBE_PAUSE).until(() -> {
                if (!starting.isAlive()) {
                    throw new IllegalStateException("gateway exited with " + starting.exitValue() + " while starting; "
                            + log + ":\n" + logTail());
                }
                return answers();
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(
                    "gateway did not answer on port " + port + " within " + START_TIMEOUT + "; " + log + ":\n"
                            + logTail(),
                    e);
        }
    }

    /** kill -9: returns the exit status, which is {@link #SIGKILL_EXIT} when SIGKILL really ended it. */
    public int kill9() throws InterruptedException {
        // Process.destroyForcibly() is SIGKILL on Linux; the caller checks the exit status to be sure
        process.destroyForcibly();
        if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("gateway pid " + process.pid() + " survived SIGKILL for " + EXIT_TIMEOUT);
        }
        LIVE.remove(process);
        return process.exitValue();
    }

    /** SIGTERM, the graceful stop: returns the exit status once the JVM is gone. */
    public int terminate() throws InterruptedException {
        // Process.destroy() is SIGTERM on Linux: Spring's shutdown hooks run
        process.destroy();
        if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("gateway pid " + process.pid() + " did not stop within " + EXIT_TIMEOUT
                    + " of SIGTERM; " + logTail());
        }
        LIVE.remove(process);
        return process.exitValue();
    }

    /** SIGSTOP: every thread of the JVM freezes (a long GC pause or a stalled VM), sockets stay open. */
    public void freeze() {
        signal("STOP");
    }

    /** SIGCONT after {@link #freeze()}. */
    public void thaw() {
        signal("CONT");
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    int starts() {
        return starts;
    }

    /** The last lines of the current start's log. */
    public String logTail() {
        Path log = logDir.resolve("gateway-" + starts + ".log");
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log " + log + ": " + e.getMessage() + ")";
        }
    }

    public Path logDir() {
        return logDir;
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        if (process != null) {
            LIVE.remove(process);
        }
    }

    // the JDK sends only TERM and KILL, so the other signals go through kill(1)
    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kill.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name, e);
        }
    }

    // Any HTTP answer, even a 404 for an unknown job, means the server is up.
    private boolean answers() throws InterruptedException {
        try {
            probe.send(
                    HttpRequest.newBuilder(URI.create(baseUrl() + "/jobs/probe"))
                            .timeout(PROBE_TIMEOUT)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
