package io.mykit.delay.bench;

import io.mykit.delay.test.support.TestFiles;
import io.mykit.delay.test.support.TestServers;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The bench's peer: a beanstalkd process of its own on a free loopback port with its binlog ({@code -b}) in a directory
 * of its own, as Debian's package installs it ({@code -Dbench.beanstalkd=<path>}, else {@code beanstalkd} on the PATH;
 * absent, the peer scenarios fail at once and say how to install it). Its CPU and RSS come from /proc.
 * {@link #startPrefilled} restarts it on the same binlog, which it replays: a prefill written without fsync is then
 * served by a beanstalkd that syncs as the scenario asks.
 */
final class Beanstalkd implements AutoCloseable {
    private static final long START_TIMEOUT_MS = 10_000;
    private static final long STOP_TIMEOUT_MS = 10_000;

    /**
     * When beanstalkd fsyncs its binlog: {@code always} (-f0: each put and delete written and fsync'd before its
     * answer, the promise of a committed journal row with innodb_flush_log_at_trx_commit=1), {@code <ms>} (-f ms:
     * written before the answer, fsync'd at most once per ms afterwards; 50 is beanstalkd's default) or {@code never}
     * (-F).
     */
    record Mode(String setting, String flag) {
        static final Mode NEVER = new Mode("never", "-F");

        static Mode parse(String setting) {
            String s = setting.trim().toLowerCase(Locale.ROOT);
            if (s.equals("always")) {
                return new Mode(s, "-f0");
            }
            if (s.equals("never")) {
                return NEVER;
            }
            if (s.matches("\\d{1,6}")) {
                return new Mode(s, "-f" + Integer.parseInt(s));
            }
            throw new IllegalArgumentException(
                    "bench.beanstalkd.fsync takes always, never or milliseconds, not " + setting);
        }

        /** {@code always,50} -> both, in that order. */
        static List<Mode> parseList(String settings) {
            List<Mode> modes = Arrays.stream(settings.split(","))
                    .map(String::trim)
                    .filter(m -> !m.isEmpty())
                    .map(Mode::parse)
                    .toList();
            if (modes.isEmpty()) {
                throw new IllegalArgumentException("bench.beanstalkd.fsync names no mode");
            }
            return modes;
        }

        /** "beanstalkd -f0": how the table names this peer. */
        String label() {
            return "beanstalkd " + flag;
        }

        String describe() {
            return switch (setting) {
                case "always" -> "-f0: each put and delete fsync'd before its answer";
                case "never" -> "-F: never fsync'd";
                default -> flag + ": written before the answer, fsync'd at most every " + setting + " ms after it";
            };
        }
    }

    private final Path executable;
    private final Path root;
    private final Mode mode;
    private final Process process;
    private final int port;
    private final long launchToFirstAnswerMs;

    private Beanstalkd(Path executable, Path root, Mode mode, Process process, int port, long firstAnswerMs) {
        this.executable = executable;
        this.root = root;
        this.mode = mode;
        this.process = process;
        this.port = port;
        this.launchToFirstAnswerMs = firstAnswerMs;
    }

    /** A fresh beanstalkd with an empty binlog directory under {@code bench.beanstalkd.dir} (the temp dir). */
    static Beanstalkd start(BenchSettings settings, Mode mode) throws IOException, InterruptedException {
        Path parent = Path.of(settings.text("bench.beanstalkd.dir", System.getProperty("java.io.tmpdir")));
        Path root = Files.createTempDirectory(parent, "mykit-bench-beanstalkd-");
        Files.createDirectories(root.resolve("binlog"));
        try {
            return launch(executable(settings), root, mode);
        } catch (IOException | RuntimeException | InterruptedException e) {
            deleteTree(root);
            throw e;
        }
    }

    /** The beanstalkd binary: {@code bench.beanstalkd} (a path or a name on the PATH), beanstalkd by default. */
    static Path executable(BenchSettings settings) {
        String named = settings.text("bench.beanstalkd", "beanstalkd");
        if (named.contains(File.separator)) {
            Path path = Path.of(named);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw new IllegalStateException("bench.beanstalkd=" + named + " is no executable file");
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path path = Path.of(dir, named);
            if (Files.isExecutable(path)) {
                return path;
            }
        }
        throw new IllegalStateException("no " + named + " on the PATH: the peer scenarios need beanstalkd"
                + " (apt-get install -y beanstalkd), or -Dbench.beanstalkd=<path>");
    }

    /** "beanstalkd 1.12", from {@code beanstalkd -v}. */
    static String version(Path executable) throws IOException, InterruptedException {
        Process v = new ProcessBuilder(executable.toString(), "-v")
                .redirectErrorStream(true)
                .start();
        String text = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        v.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        return text;
    }

    private static Beanstalkd launch(Path executable, Path root, Mode mode) throws IOException, InterruptedException {
        IOException failure = null;
        // a free port can be taken before beanstalkd binds it: try another
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = TestServers.freePort();
            List<String> command = new ArrayList<>(List.of(
                    executable.toString(),
                    "-l",
                    "127.0.0.1",
                    "-p",
                    Integer.toString(port),
                    "-b",
                    root.resolve("binlog").toString(),
                    mode.flag()));
            Path log = root.resolve("beanstalkd.log");
            long launched = System.nanoTime();
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            try {
                awaitFirstAnswer(process, port, log);
                return new Beanstalkd(
                        executable, root, mode, process, port, (System.nanoTime() - launched) / 1_000_000);
            } catch (IOException e) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                failure = failure == null ? e : failure;
            }
        }
        throw failure;
    }

    /** Until a {@code stats} is answered: the moment it serves. */
    private static void awaitFirstAnswer(Process process, int port, Path log) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("beanstalkd exited with " + process.exitValue() + ": " + TestFiles.tail(log));
            }
            try (BeanstalkClient client = new BeanstalkClient("127.0.0.1", port)) {
                client.stats();
                return;
            } catch (IOException notYet) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException(
                            "beanstalkd did not answer on " + port + " within " + START_TIMEOUT_MS / 1000 + " s: "
                                    + TestFiles.tail(log),
                            notYet);
                }
                Thread.sleep(5);
            }
        }
    }

    /** What a prefill does with a beanstalkd that does not fsync: puts, whose ids it keeps. */
    interface Prefill {
        void fill(Beanstalkd server) throws Exception;
    }

    /**
     * A fresh beanstalkd filled by {@code prefill} without fsync (-F: beanstalkd fsyncs one put at a time, so a large
     * prefill in -f0 would last as many fsyncs), then stopped and started again on the same binlog with {@code mode}:
     * it replays the prefill and serves the measured load as the scenario asks.
     */
    static Beanstalkd startPrefilled(BenchSettings settings, Mode mode, Prefill prefill) throws Exception {
        Beanstalkd filling = start(settings, Mode.NEVER);
        try {
            prefill.fill(filling);
            filling.stop();
            return launch(filling.executable, filling.root, mode);
        } catch (Exception | Error e) {
            filling.close();
            throw e;
        }
    }

    int port() {
        return port;
    }

    Mode mode() {
        return mode;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    /** From starting the process to its first answer. */
    long launchToFirstAnswerMs() {
        return launchToFirstAnswerMs;
    }

    BeanstalkClient connect() throws IOException {
        return new BeanstalkClient("127.0.0.1", port);
    }

    Map<String, String> stats() throws IOException {
        try (BeanstalkClient client = connect()) {
            return client.stats();
        }
    }

    /** Resident memory of the process (VmRSS in /proc), bytes; -1 if unreadable. */
    long rssBytes() {
        return rssBytes(process.pid());
    }

    /** VmRSS of any process, bytes; -1 if unreadable. */
    static long rssBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Bytes the binlog files take on disk. */
    long binlogBytes() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("binlog"))) {
            return files.filter(f -> f.getFileName().toString().startsWith("binlog."))
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }

    /** SIGTERM and wait; the binlog stays. */
    private void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops it and removes its binlog. */
    @Override
    public void close() throws InterruptedException {
        try {
            stop();
        } finally {
            deleteTree(root);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.out.println("[bench] could not remove " + dir + ": " + e);
        }
    }
}
