package io.mykit.delay.test.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.store.BucketLayout;
import io.mykit.delay.queue.store.ClusterRedis;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.MigrationReport;
import io.mykit.delay.queue.store.NodePipelines;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.support.KeyPrefixCleanup;
import io.mykit.delay.test.support.RedisClusterServers;
import io.mykit.delay.test.support.WaitingSlices;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/**
 * The migration on the test JVM's Redis Cluster of three masters ({@link RedisClusterServers}), where a call naming
 * keys of two buckets (two slots) would be refused with CROSSSLOT. It runs on the store's {@link ClusterRedis}
 * (per-node pipelines), under a key prefix of its own: other classes share the cluster, so it deletes only its keys.
 * The scripts are flushed on every master after the first page, so the migration also takes the NOSCRIPT path.
 */
class BucketLayoutClusterTest {
    private static final int JOBS = 4_000;
    private static final long HOUR = 3_600_000;

    private final RedisClusterServers cluster = RedisClusterServers.get();
    private final String prefix =
            "layout-cluster-" + UUID.randomUUID().toString().substring(0, 8);
    private ClusterRedis redis;

    @BeforeEach
    void connect() {
        redis = new ClusterRedis(
                () -> new ClusterConnectionProvider(
                        new LinkedHashSet<>(cluster.nodes()),
                        DefaultJedisClientConfig.builder().build()),
                3,
                Duration.ofSeconds(6));
    }

    @AfterEach
    void deleteKeys() {
        redis.close();
        KeyPrefixCleanup.deleteOnCluster(cluster.nodes(), prefix);
    }

    @Test
    void growing_16_to_32_then_shrinking_to_8_on_a_cluster_moves_every_job_in_its_stage() {
        long start = System.nanoTime();
        assertThat(new BucketLayout(redis, new Keys(prefix, 16)).ensure()).isEmpty();
        seed(new Keys(prefix, 16));
        // as the gateway's Redis-loss watch leaves them on a first start
        new RedisDelayStore(redis, new Keys(prefix, 16)).writeEpoch();
        BucketSnapshot before = BucketSnapshot.read(redis.client(), prefix, 40);
        assertThat(before.problems()).isEmpty();
        assertThat(before.jobs()).hasSize(JOBS);
        assertThat(before.staleReadyEntries()).isEqualTo(16);

        AtomicBoolean flushed = new AtomicBoolean();
        List<MigrationReport> grown = new BucketLayout(redis, new Keys(prefix, 32), written -> {
                    if (flushed.compareAndSet(false, true)) {
                        cluster.flushScripts();
                    }
                })
                .ensure();
        assertThat(flushed).as("the scripts were flushed mid-migration").isTrue();
        assertThat(grown).singleElement().satisfies(r -> assertThat(r.moved()).isPositive());
        assertPlaced(before, 32);
        assertThat(new RedisDelayStore(redis, new Keys(prefix, 32)).hasEpoch())
                .as("new buckets marked")
                .isTrue();

        List<MigrationReport> shrunk = new BucketLayout(redis, new Keys(prefix, 8)).ensure();
        assertThat(shrunk)
                .singleElement()
                .satisfies(r -> assertThat(r.bucketsRetired()).isEqualTo(24));
        assertPlaced(before, 8);
        assertThat(new BucketLayout(redis, new Keys(prefix, 8)).needsMigration())
                .isFalse();
        assertThat(new RedisDelayStore(redis, new Keys(prefix, 8)).hasEpoch()).isTrue();
        System.out.printf(
                "BucketLayoutClusterTest: %s; %s; %d ms%n", grown, shrunk, (System.nanoTime() - start) / 1_000_000);
    }

    private void assertPlaced(BucketSnapshot before, int buckets) {
        BucketSnapshot after = BucketSnapshot.read(redis.client(), prefix, 40);
        assertThat(after.problems()).isEmpty();
        assertThat(after.staleReadyEntries()).isZero();
        assertThat(after.differencesFrom(before.placedBy((id, p) -> Buckets.of(id, buckets))))
                .isEmpty();
    }

    /**
     * Writes the stages straight into the bucket structures, a ready-list leftover of a finished job in each bucket.
     */
    private void seed(Keys keys) {
        long now = System.currentTimeMillis();
        try (NodePipelines<?> pipes = redis.pipelines()) {
            for (int i = 0; i < JOBS; i++) {
                String id = prefix + "-" + i;
                int b = Buckets.of(id, keys.buckets());
                Job job = new Job(id, "pull-" + (i % 3), null, null, HOUR, 0, 0, 0, "body " + i, now);
                // every key of bucket b shares its slot: one node's pipeline
                AbstractPipeline pipe = pipes.on(keys.pool(b));
                pipe.hset(keys.pool(b), id, JobCodec.encode(job));
                switch (i % 5) {
                    case 0 -> WaitingSlices.add(pipe, keys, b, id, job.dueTime());
                    case 1 -> {
                        WaitingSlices.add(pipe, keys, b, id, job.dueTime());
                        pipe.hset(keys.reserved(b), id, "1");
                    }
                    case 2 -> pipe.zadd(keys.inflight(b), now + HOUR, id);
                    case 3 -> {
                        pipe.zadd(keys.inflight(b), now + 30_000, id);
                        pipe.hset(keys.reserved(b), id, "2");
                    }
                    default -> pipe.rpush(keys.ready(b, job.getTopic()), id);
                }
            }
            // a finished job's entry, left in its ready list as remove.lua leaves it
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.pool(b)).rpush(keys.ready(b, "pull-0"), "finished-" + b);
            }
            pipes.sync();
        }
    }
}
