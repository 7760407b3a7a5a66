package io.mykit.delay.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.util.JobIdGenerator;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Redis memory per pending job with a 100 B body, measured on a private redis-server so that INFO memory sees only
 * these jobs: used_memory before and after pushing them through the store, and MEMORY USAGE of every key by kind.
 * {@code -Dmykit.memory.jobs=1000000} measures the million; the default keeps the run short, with buckets
 * already far past the small encodings of hashes and sorted sets, so it counts the same per job.
 */
class RecordMemoryTest {
    private static final int JOBS = Integer.getInteger("mykit.memory.jobs", 100_000);
    private static final int BUCKETS = 16;
    private static final int BODY_BYTES = 100;
    private static final int BATCH = 1_000;
    // with due slices: 150 and 171 at 1M jobs, 183 and 205 at the default 100k, where the slices' index weighs 15 B a
    // job (one large delay ZSET: 226 and 258 at 1M; JSON records before that: 354 and 450)
    private static final long LIMIT_GENERATED_ID = 195;
    private static final long LIMIT_36_CHAR_ID = 215;

    private static OwnRedis server;
    private static JedisPooled redis;
    private static SingleRedis nodes;

    @BeforeAll
    static void privateRedis() {
        server = TestServers.startOwnRedis();
        // a FLUSHALL of a million jobs takes longer than the default 2 s read timeout
        redis = new JedisPooled(
                new HostAndPort(server.host(), server.port()),
                DefaultJedisClientConfig.builder().socketTimeoutMillis(120_000).build());
        nodes = new SingleRedis(TestServers.redisClient(server.host(), server.port()));
    }

    @AfterAll
    static void stopRedis() {
        nodes.close();
        redis.close();
        server.close();
    }

    @BeforeEach
    void empty() {
        // the private server holds only what this class wrote
        redis.flushAll();
    }

    @Test
    void a_pending_job_with_a_generated_id_costs_at_most_195_bytes_beyond_its_body() {
        JobIdGenerator ids = new JobIdGenerator(System::currentTimeMillis);
        long perJob = measure("generated ids", ids::next);
        assertThat(perJob - BODY_BYTES)
                .as("bytes per pending job beyond its body")
                .isLessThanOrEqualTo(LIMIT_GENERATED_ID);
    }

    @Test
    void a_pending_job_with_a_36_character_client_id_costs_at_most_215_bytes_beyond_its_body() {
        long perJob = measure("36-char client ids", () -> UUID.randomUUID().toString());
        assertThat(perJob - BODY_BYTES)
                .as("bytes per pending job beyond its body")
                .isLessThanOrEqualTo(LIMIT_36_CHAR_ID);
    }

    @Test
    void a_pump_of_200_due_jobs_stays_quick() {
        Keys keys = new Keys("pump", 1);
        RedisDelayStore store = new RedisDelayStore(nodes, keys);
        store.loadScripts();
        long now = System.currentTimeMillis();
        int rounds = 200;
        List<Job> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < rounds * 200; i++) {
            batch.add(job("p" + i, now - 1_000));
            if (batch.size() == BATCH) {
                store.add(batch);
                batch.clear();
            }
        }
        // the first rounds warm the JIT and the connection pool; the median is the one a loaded box disturbs least
        long[] micros = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long start = System.nanoTime();
            assertThat(store.pumpDue(0, now, 200, 30_000).jobs()).hasSize(200);
            micros[i] = (System.nanoTime() - start) / 1_000;
        }
        long[] warm = Arrays.copyOfRange(micros, 20, rounds);
        Arrays.sort(warm);
        long median = warm[warm.length / 2];
        System.out.printf("pumpDue of 200 jobs: median %d us, fastest %d us per call%n", median, warm[0]);
        assertThat(median).as("one pump of 200 jobs, us").isLessThan(20_000);
    }

    /** Pushes JOBS jobs through the store and returns used_memory growth per job. */
    private long measure(String label, Supplier<String> ids) {
        Keys keys = new Keys("mem", BUCKETS);
        RedisDelayStore store = new RedisDelayStore(nodes, keys);
        store.loadScripts();
        long before = usedMemory();
        long now = System.currentTimeMillis();
        List<Job> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < JOBS; i++) {
            batch.add(job(ids.get(), now + 3_600_000 + i));
            if (batch.size() == BATCH) {
                assertThat(store.add(batch)).hasSize(BATCH);
                batch.clear();
            }
        }
        long perJob = (usedMemory() - before) / JOBS;
        Map<String, Long> byKind = usageByKind();
        StringBuilder report = new StringBuilder(
                String.format("%s, %d jobs, %d B bodies: used_memory %d B per job", label, JOBS, BODY_BYTES, perJob));
        byKind.forEach((kind, bytes) -> report.append(String.format(", %s %.1f", kind, (double) bytes / JOBS)));
        System.out.println(report);
        return perJob;
    }

    private static Job job(String id, long dueAt) {
        long created = dueAt - 60_000;
        return new Job(id, "orders", null, null, 60_000, 0, 0, 0, "x".repeat(BODY_BYTES), created);
    }

    private static long usedMemory() {
        for (String line : redis.info("memory").split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }

    /** MEMORY USAGE (every element counted) summed by the part of the key after the bucket's hash tag. */
    private static Map<String, Long> usageByKind() {
        Map<String, Long> byKind = new TreeMap<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        ScanParams params = new ScanParams().count(1_000);
        do {
            ScanResult<String> page = redis.scan(cursor, params);
            for (String key : page.getResult()) {
                // the due slices "due:<n>" as one kind, apart from their index "due"
                String kind = key.substring(key.indexOf('}') + 2)
                        .replaceAll("^due:\\d+$", "due slices")
                        .replaceAll(":.*", "");
                byKind.merge(kind, redis.memoryUsage(key, 0), Long::sum);
            }
            cursor = page.getCursor();
        } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        return byKind;
    }
}
