package io.mykit.delay.test.rediscluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.ClusterRedis;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.LuaScript;
import io.mykit.delay.queue.store.PumpResult;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.support.RedisClusterServers;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/**
 * The store alone on the Redis Cluster, with no gateway whose timers would reload lost scripts first: the scripts are
 * on every master, and both a per-node pipeline and a single call recover from NOSCRIPT by loading them on every master
 * again.
 */
class RedisClusterStoreTest {
    private static final int BUCKETS = 32;
    private static final List<LuaScript> SAMPLE_SCRIPTS =
            Stream.of("add", "pump_due", "remove", "claim").map(LuaScript::load).toList();

    private static RedisClusterServers cluster;
    private static ClusterRedis redis;
    private static RedisDelayStore store;

    @BeforeAll
    static void start() {
        cluster = RedisClusterServers.get();
        redis = new ClusterRedis(
                () -> new ClusterConnectionProvider(
                        new LinkedHashSet<>(cluster.nodes()),
                        DefaultJedisClientConfig.builder().build()),
                3,
                Duration.ofSeconds(6));
        store = new RedisDelayStore(
                redis, new Keys("rcs-" + UUID.randomUUID().toString().substring(0, 8), BUCKETS));
    }

    @AfterAll
    static void stop() {
        store.clear();
        redis.close();
    }

    @Test
    void scripts_load_on_every_master_and_a_pipeline_and_a_single_call_reload_them_after_a_flush() {
        store.loadScripts();
        assertThat(mastersMissingScripts())
                .as("masters without the scripts after loadScripts")
                .isEmpty();

        cluster.flushScripts();
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            jobs.add(new Job(
                    "rcs-" + i + "-" + UUID.randomUUID(),
                    "t",
                    null,
                    null,
                    0,
                    0,
                    0,
                    16,
                    "b",
                    System.currentTimeMillis()));
        }
        // add pipelines one EVALSHA per bucket over all three masters: each answers NOSCRIPT first
        assertThat(store.add(jobs)).hasSize(jobs.size());
        assertThat(mastersMissingScripts())
                .as("masters without the scripts after a pipeline's NOSCRIPT")
                .isEmpty();

        cluster.flushScripts();
        int bucket = store.bucketOf(jobs.get(0).getId());
        PumpResult pumped = store.pumpDue(bucket, System.currentTimeMillis(), 1_000, 30_000);
        assertThat(pumped.jobs())
                .as("due jobs of bucket " + bucket)
                .extracting(Job::getId)
                .contains(jobs.get(0).getId());
        assertThat(mastersMissingScripts())
                .as("masters without the scripts after a single call's NOSCRIPT")
                .isEmpty();
    }

    private static List<HostAndPort> mastersMissingScripts() {
        List<HostAndPort> missing = new ArrayList<>();
        for (HostAndPort node : cluster.nodes()) {
            try (Jedis jedis = TestServers.jedis(node)) {
                List<Boolean> exists = jedis.scriptExists(
                        SAMPLE_SCRIPTS.stream().map(LuaScript::sha).toArray(String[]::new));
                if (exists.contains(false)) {
                    missing.add(node);
                }
            }
        }
        return missing;
    }
}
