package io.mykit.delay.core.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import redis.embedded.core.ExecutableProvider;

/**
 * One real redis-server child process on 127.0.0.1, so the embedded default and the tests run the same Redis binary.
 *
 * <p>Files in its directory: {@code redis.conf} (written at each start), {@code redis.log} (its stdout and stderr,
 * appended), plus whatever the settings make Redis keep there (AOF, RDB).
 */
public final class RedisProcess {

    /** Loopback only, and with a password when started with one: other users of the host must not read the queue. */
    public static final String HOST = "127.0.0.1";

    private static final String EXECUTABLE_NAME = "redis-server";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration PING_TIMEOUT = Duration.ofMillis(500);
    private static final int LOG_TAIL_LINES = 20;

    private static Path bundledExecutable;

    private final Path executable;
    private final Path dir;
    private final int port;
    private final List<String> settings;
    private final String password;
    private Process process;

    private RedisProcess(Path executable, Path dir, int port, List<String> settings, String password) {
        this.executable = executable;
        this.dir = dir;
        this.port = port;
        this.settings = List.copyOf(settings);
        this.password = password;
    }

    /**
     * Starts redis-server on {@code 127.0.0.1:port} with its working directory {@code dir} and waits until it answers
     * PING. Each setting is one redis.conf line, e.g. {@code "appendonly yes"}.
     */
    public static RedisProcess start(Path executable, Path dir, int port, List<String> settings) throws IOException {
        return start(executable, dir, port, settings, null);
    }

    /** As above, and every client must AUTH with {@code password} (null: none). */
    public static RedisProcess start(Path executable, Path dir, int port, List<String> settings, String password)
            throws IOException {
        RedisProcess redis = new RedisProcess(executable, dir.toAbsolutePath().normalize(), port, settings, password);
        redis.launch();
        return redis;
    }

    /** A password for a Redis of this host's own: 32 random bytes, hex. */
    public static String randomPassword() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The system's redis-server if it is on the PATH, else the binary shipped in embedded-redis. */
    public static Path findExecutable() throws IOException {
        Optional<Path> system = systemExecutable();
        return system.isPresent() ? system.get() : bundledExecutable();
    }

    /** redis-server from the PATH, if any. */
    public static Optional<Path> systemExecutable() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String entry : path.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path candidate = Path.of(entry, EXECUTABLE_NAME);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The redis-server binary shipped in the embedded-redis jar, extracted once per JVM to a temp directory. */
    public static synchronized Path bundledExecutable() throws IOException {
        if (bundledExecutable == null) {
            bundledExecutable =
                    ExecutableProvider.newJarResourceProvider().get().toPath();
        }
        return bundledExecutable;
    }

    /** True when host:port answers PING with PONG within half a second (a Redis still loading its AOF does not). */
    public static boolean answersPing(String host, int port) {
        return "+PONG".equals(pingReply(host, port, null));
    }

    /** As {@link #answersPing(String, int)}, after an AUTH with {@code password} (null: none). */
    public static boolean answersPing(String host, int port, String password) {
        return "+PONG".equals(pingReply(host, port, password));
    }

    /** True when a Redis answers PING at host:port, with PONG or with a demand to authenticate first. */
    public static boolean answers(String host, int port) {
        String reply = pingReply(host, port, null);
        return reply != null && (reply.equals("+PONG") || reply.startsWith("-NOAUTH"));
    }

    /** The first line of the answer to PING (after AUTH's, when a password is given); null when none came. */
    private static String pingReply(String host, int port, String password) {
        try (Socket socket = new Socket()) {
            int timeout = (int) PING_TIMEOUT.toMillis();
            socket.connect(new InetSocketAddress(host, port), timeout);
            socket.setSoTimeout(timeout);
            OutputStream out = socket.getOutputStream();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            if (password != null) {
                out.write(command("AUTH", password));
                out.flush();
                if (!"+OK".equals(in.readLine())) {
                    return null;
                }
            }
            out.write(command("PING"));
            out.flush();
            return in.readLine();
        } catch (IOException e) {
            return null;
        }
    }

    /** A RESP array of bulk strings: any byte of an argument is safe in it. */
    private static byte[] command(String... parts) {
        StringBuilder out = new StringBuilder("*").append(parts.length).append("\r\n");
        for (String part : parts) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            out.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    public int port() {
        return port;
    }

    /** The password clients must AUTH with; null when none. */
    public String password() {
        return password;
    }

    public Path executable() {
        return executable;
    }

    public Path dir() {
        return dir;
    }

    public synchronized long pid() {
        return process.pid();
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Starts the process again on the same port, directory and settings; it must have been stopped or killed. */
    public synchronized void restart() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is still running (pid " + pid() + ")");
        }
        launch();
    }

    /** SIGTERM, so Redis flushes its AOF and exits; SIGKILL if it has not gone after ten seconds. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!awaitExit()) {
            process.destroyForcibly();
            awaitExit();
        }
    }

    /** SIGKILL, as a crash would: nothing is flushed. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        awaitExit();
    }

    @Override
    public String toString() {
        return "redis-server " + HOST + ":" + port + " (" + executable + ", dir " + dir + ")";
    }

    private synchronized void launch() throws IOException {
        Files.createDirectories(dir);
        Path conf = dir.resolve("redis.conf");
        Path log = dir.resolve("redis.log");
        Files.write(conf, configLines(), StandardCharsets.UTF_8);
        ownerOnly(conf);
        process = new ProcessBuilder(executable.toString(), conf.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(this + " exited with code " + process.exitValue() + " at start; " + log
                        + " ends with:\n" + tail(log));
            }
            if (answersPing(HOST, port, password)) {
                return;
            }
            sleep(Duration.ofMillis(20));
        }
        process.destroyForcibly();
        throw new IOException(
                this + " did not answer PING within " + START_TIMEOUT + "; " + log + " ends with:\n" + tail(log));
    }

    // Quoted values, so a directory with spaces survives Redis's config parser.
    private List<String> configLines() {
        List<String> lines = new ArrayList<>();
        lines.add("port " + port);
        lines.add("bind " + HOST);
        lines.add("daemonize no");
        lines.add("dir " + quote(dir.toString()));
        if (password != null) {
            lines.add("requirepass " + quote(password));
        }
        lines.addAll(settings);
        return lines;
    }

    /** The config holds the password: readable by the gateway's user alone, where the file system knows owners. */
    private static void ownerOnly(Path file) throws IOException {
        if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
    }

    private static String quote(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private boolean awaitExit() {
        try {
            return process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server", e);
        }
    }
}
