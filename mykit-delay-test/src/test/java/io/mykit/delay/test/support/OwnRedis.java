package io.mykit.delay.test.support;

import io.mykit.delay.core.embedded.RedisProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A private redis-server that a test may stop, kill -9 and restart on the same port, which the shared one must never
 * be. Stopped at JVM exit if the test forgets.
 */
public final class OwnRedis implements AutoCloseable {

    /** No persistence unless the caller asks for it: a kill loses everything, as with the shared test Redis. */
    static final List<String> DEFAULT_SETTINGS = List.of("save \"\"", "appendonly no");

    private static final int START_ATTEMPTS = 3;
    private static final Set<OwnRedis> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(OwnRedis::close), "own-redis-cleanup"));
    }

    private final RedisProcess process;
    private final Path dir;

    private OwnRedis(RedisProcess process, Path dir) {
        this.process = process;
        this.dir = dir;
    }

    /** Starts one on a free port; extra settings are redis.conf lines that override the defaults. */
    static OwnRedis start(Path executable, List<String> extraSettings) {
        List<String> settings = new ArrayList<>(DEFAULT_SETTINGS);
        settings.addAll(extraSettings);
        Path dir = createTempDir();
        IOException failure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                OwnRedis redis =
                        new OwnRedis(RedisProcess.start(executable, dir, TestServers.freePort(), settings), dir);
                LIVE.add(redis);
                return redis;
            } catch (IOException e) {
                // The free port can be taken before Redis binds it: try another.
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        TestFiles.deleteRecursively(dir);
        throw new IllegalStateException(
                "Cannot start a private redis-server (" + executable + "): " + failure.getMessage(), failure);
    }

    public String host() {
        return RedisProcess.HOST;
    }

    public int port() {
        return process.port();
    }

    public TestServers.RedisEndpoint endpoint() {
        return new TestServers.RedisEndpoint(host(), port());
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Directory holding redis.conf, redis.log and any persistence files. */
    public Path dir() {
        return dir;
    }

    /** Graceful: SIGTERM, Redis writes what its settings persist and exits. */
    public void stop() {
        process.stop();
    }

    /** A crash: SIGKILL. */
    public void kill() {
        process.kill();
    }

    /** Starts it again on the same port, after stop() or kill(). */
    public void restart() {
        try {
            process.restart();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot restart " + process, e);
        }
    }

    /** Stops it for good and deletes its directory. */
    @Override
    public void close() {
        process.stop();
        LIVE.remove(this);
        TestFiles.deleteRecursively(dir);
    }

    @Override
    public String toString() {
        return process.toString();
    }

    private static Path createTempDir() {
        try {
            return Files.createTempDirectory("mykit-own-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
