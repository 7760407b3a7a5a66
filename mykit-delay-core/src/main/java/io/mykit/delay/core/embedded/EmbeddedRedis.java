package io.mykit.delay.core.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.logging.Log;

/**
 * The embedded default's Redis: one persistent redis-server per data directory, shared by the contexts of this JVM,
 * with a lock file so that an orphan left by a gateway killed with -9 is stopped instead of run beside.
 *
 * <pre>
 * &lt;data-dir&gt;/redis/
 *   redis.lock   locked by the JVM that owns the Redis; the OS drops the lock when that JVM dies, even on kill -9
 *   redis.pid    pid of its redis-server; still alive while the lock is free = an orphan
 *   redis.conf   written at each start (fresh free port and random password each time), owner-only
 *   redis.log    redis-server's output, appended
 *   appendonly*  the AOF (a file on Redis 6, a directory on Redis 7): the queue survives restarts
 * </pre>
 */
final class EmbeddedRedis {

    /** AOF on, fsync once a second, no RDB snapshots: a restart keeps the queue. */
    static final List<String> PERSISTENT_SETTINGS = List.of("appendonly yes", "appendfsync everysec", "save \"\"");

    private static final int START_ATTEMPTS = 3;
    private static final Duration ORPHAN_STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Map<Path, EmbeddedRedis> RUNNING = new HashMap<>();

    private final Path dir;
    private final FileChannel lock;
    private final RedisProcess process;
    private int users;

    private EmbeddedRedis(Path dir, FileChannel lock, RedisProcess process) {
        this.dir = dir;
        this.lock = lock;
        this.process = process;
    }

    /** Starts the Redis for {@code dir}, or joins the one this JVM already runs there; release the lease when done. */
    static synchronized Lease acquire(Path dir, Log log) throws IOException {
        Path key = dir.toAbsolutePath().normalize();
        EmbeddedRedis redis = RUNNING.get(key);
        if (redis == null) {
            redis = start(key, log);
            RUNNING.put(key, redis);
        }
        redis.users++;
        return redis.new Lease();
    }

    /** Stops every embedded Redis of this JVM, whoever still uses it: the JVM is going away. */
    static synchronized void stopAll() {
        for (EmbeddedRedis redis : new ArrayList<>(RUNNING.values())) {
            redis.shutdown();
        }
    }

    private static synchronized void release(EmbeddedRedis redis) {
        if (--redis.users == 0) {
            redis.shutdown();
        }
    }

    private static EmbeddedRedis start(Path dir, Log log) throws IOException {
        Files.createDirectories(dir);
        FileChannel lock =
                FileChannel.open(dir.resolve("redis.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            if (lock.tryLock() == null) {
                throw new IllegalStateException("Embedded Redis directory " + dir + " is in use by another process; "
                        + "give this gateway its own mykit.delay.embedded.data-dir or set mykit.delay.redis.host");
            }
            Path pidFile = dir.resolve("redis.pid");
            stopOrphan(pidFile, log);
            RedisProcess process = startOnFreePort(dir);
            Files.writeString(pidFile, Long.toString(process.pid()), StandardCharsets.US_ASCII);
            return new EmbeddedRedis(dir, lock, process);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    // A port found free can be taken before Redis binds it; another free port is the cure.
    private static RedisProcess startOnFreePort(Path dir) throws IOException {
        Path executable = RedisProcess.findExecutable();
        IOException failure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                // a new password each start: no client of an earlier run, nor any other user of the host, gets in
                return RedisProcess.start(
                        executable, dir, freePort(), PERSISTENT_SETTINGS, RedisProcess.randomPassword());
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    private static void stopOrphan(Path pidFile, Log log) throws IOException {
        if (!Files.exists(pidFile)) {
            return;
        }
        String text = Files.readString(pidFile, StandardCharsets.US_ASCII).trim();
        Optional<ProcessHandle> orphan = parsePid(text)
                .flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive)
                .filter(EmbeddedRedis::isRedisServer);
        if (orphan.isPresent()) {
            log.warn("Stopping orphan redis-server (pid " + text + ") left in " + pidFile.getParent()
                    + " by a gateway that did not shut down");
            terminate(orphan.get());
        }
        Files.delete(pidFile);
    }

    private static Optional<Long> parsePid(String text) {
        try {
            return Optional.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    // The pid may have been reused by an unrelated process since the pid file was written. Only "redis": Debian's
    // redis-server is a link to redis-check-rdb, and that is the name the process then has.
    private static boolean isRedisServer(ProcessHandle handle) {
        return handle.info().command().map(command -> command.contains("redis")).orElse(false);
    }

    // SIGTERM first, so the orphan writes out its AOF before the new Redis reads it.
    private static void terminate(ProcessHandle handle) throws IOException {
        handle.destroy();
        if (!awaitExit(handle)) {
            handle.destroyForcibly();
            if (!awaitExit(handle)) {
                throw new IOException("orphan redis-server pid " + handle.pid() + " does not exit");
            }
        }
    }

    private static boolean awaitExit(ProcessHandle handle) {
        try {
            handle.onExit().get(ORPHAN_STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return !handle.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !handle.isAlive();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(RedisProcess.HOST, 0));
            return socket.getLocalPort();
        }
    }

    private void shutdown() {
        try {
            process.stop();
            Files.deleteIfExists(dir.resolve("redis.pid"));
        } catch (IOException e) {
            // The pid file only matters to the next start, which checks that the pid is a live redis-server.
        } finally {
            RUNNING.remove(dir);
            users = 0;
            try {
                lock.close();
            } catch (IOException ignored) {
                // Closing the channel releases the lock; a failure here leaves nothing the OS will not clean up.
            }
        }
    }

    /** One user's hold on the Redis; releasing it twice counts once. */
    final class Lease {

        private final AtomicBoolean released = new AtomicBoolean();

        int port() {
            return process.port();
        }

        String password() {
            return process.password();
        }

        Path executable() {
            return process.executable();
        }

        Path dir() {
            return dir;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                EmbeddedRedis.release(EmbeddedRedis.this);
            }
        }
    }
}
