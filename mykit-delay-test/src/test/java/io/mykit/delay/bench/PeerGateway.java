package io.mykit.delay.bench;

import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * The gateway as the peer and A/B scenarios run it: a fresh gateway JVM ({@link GatewayJvm}: this class path, or a
 * runnable jar) with its default settings on a private redis-server without persistence and the bench's freshly
 * truncated MariaDB database, and a meter of the three processes' CPU from /proc ("gateway", "redis", "mariadb").
 */
final class PeerGateway implements AutoCloseable {
    private static final long FIRST_ANSWER_TIMEOUT_MS = 120_000;

    private final OwnRedis redis;
    private final GatewayJvm jvm;
    private final CpuMeter cpu;
    private final CpuMeter.Sample beforeLaunch;
    private final long launchToFirstAnswerMs;

    private PeerGateway(
            OwnRedis redis, GatewayJvm jvm, CpuMeter cpu, CpuMeter.Sample beforeLaunch, long launchToFirstAnswerMs) {
        this.redis = redis;
        this.jvm = jvm;
        this.cpu = cpu;
        this.beforeLaunch = beforeLaunch;
        this.launchToFirstAnswerMs = launchToFirstAnswerMs;
    }

    /** Starts one from {@code jar} (empty: {@code bench.gateway.jar}, else this class path). */
    static PeerGateway start(BenchSettings settings, Path logDir, String jar) throws Exception {
        OwnRedis redis = TestServers.startOwnRedis();
        try {
            Map<String, ProcessHandle> stores = new LinkedHashMap<>();
            stores.put("redis", ProcessHandle.of(redis.pid()).orElseThrow());
            CpuMeter.mariaDbProcess(settings.mysqlPort()).ifPresent(p -> stores.put("mariadb", p));
            CpuMeter.Sample beforeLaunch = CpuMeter.ofServers(stores).sample();
            BenchSettings own = settings.withRedis(redis.host(), redis.port());
            GatewayJvm jvm = jar.isEmpty() ? GatewayJvm.start(own, logDir) : GatewayJvm.start(own, logDir, jar);
            try {
                long firstAnswerMs = awaitFirstAnswer(jvm);
                Map<String, ProcessHandle> servers = new LinkedHashMap<>();
                servers.put("gateway", jvm.handle());
                servers.putAll(stores);
                return new PeerGateway(redis, jvm, CpuMeter.ofServers(servers), beforeLaunch, firstAnswerMs);
            } catch (Exception | Error e) {
                jvm.close();
                throw e;
            }
        } catch (Exception | Error e) {
            redis.close();
            throw e;
        }
    }

    /** From launch to the first 200 of GET /stats: what a user's first call would wait. */
    private static long awaitFirstAnswer(GatewayJvm jvm) throws IOException, InterruptedException {
        PlainHttp.Request stats = PlainHttp.Request.get(URI.create(jvm.baseUrl()), "/stats");
        long deadline = System.currentTimeMillis() + FIRST_ANSWER_TIMEOUT_MS;
        try (PlainHttp http = new PlainHttp(URI.create(jvm.baseUrl()))) {
            while (true) {
                try {
                    if (http.exchange(stats).status() == 200) {
                        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - jvm.launchedNanos());
                    }
                } catch (IOException notYet) {
                    if (System.currentTimeMillis() > deadline) {
                        throw notYet;
                    }
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("GET /stats never answered 200 within " + FIRST_ANSWER_TIMEOUT_MS / 1000
                            + " s; see " + jvm.log());
                }
                Thread.sleep(20);
            }
        }
    }

    String baseUrl() {
        return jvm.baseUrl();
    }

    GatewayJvm jvm() {
        return jvm;
    }

    /** The gateway JVM's, the private Redis' and MariaDB's CPU. */
    CpuMeter cpu() {
        return cpu;
    }

    /** Redis and MariaDB just before the gateway JVM was launched (the gateway counts from 0 there). */
    CpuMeter.Sample beforeLaunch() {
        return beforeLaunch;
    }

    long launchToFirstAnswerMs() {
        return launchToFirstAnswerMs;
    }

    /** The private redis-server's resident memory (VmRSS), bytes. */
    long redisRssBytes() {
        return Beanstalkd.rssBytes(redis.pid());
    }

    /** INFO memory's used_memory of the private Redis, bytes. */
    long redisUsedMemory() {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            return jedis.info("memory")
                    .lines()
                    .filter(line -> line.startsWith("used_memory:"))
                    .mapToLong(line -> Long.parseLong(
                            line.substring("used_memory:".length()).trim()))
                    .findFirst()
                    .orElse(-1);
        }
    }

    /** SIGTERM to the gateway, then its Redis goes. */
    @Override
    public void close() throws Exception {
        try {
            jvm.close();
        } finally {
            redis.close();
        }
    }
}
