package io.mykit.delay.test.layout;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.store.BucketLayout;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.MigrationReport;
import io.mykit.delay.test.support.OwnRedisCluster;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.JedisCluster;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The migration on a real Redis Cluster of three masters, where a call naming keys of two buckets (two slots) would be
 * refused with CROSSSLOT. The cluster starts empty, so the first script calls also take the NOSCRIPT road.
 */
class BucketLayoutClusterTest {
    private static final String PREFIX = "layout-cluster";
    private static final int JOBS = 4_000;
    private static final long HOUR = 3_600_000;

    @Test
    void growing_16_to_32_then_shrinking_to_8_on_a_cluster_moves_every_job_in_its_stage() {
        long start = System.nanoTime();
        try (OwnRedisCluster cluster = OwnRedisCluster.start(3); JedisCluster redis = cluster.client()) {
            assertThat(new BucketLayout(redis, new Keys(PREFIX, 16)).ensure()).isEmpty();
            seed(redis, new Keys(PREFIX, 16));
            BucketSnapshot before = BucketSnapshot.read(redis, PREFIX, 40);
            assertThat(before.problems()).isEmpty();
            assertThat(before.jobs()).hasSize(JOBS);
            assertThat(before.staleReadyEntries()).isEqualTo(16);

            List<MigrationReport> grown = new BucketLayout(redis, new Keys(PREFIX, 32)).ensure();
            assertThat(grown).singleElement().satisfies(r -> assertThat(r.moved()).isPositive());
            assertPlaced(redis, before, 32);

            List<MigrationReport> shrunk = new BucketLayout(redis, new Keys(PREFIX, 8)).ensure();
            assertThat(shrunk).singleElement().satisfies(r -> assertThat(r.bucketsRetired()).isEqualTo(24));
            assertPlaced(redis, before, 8);
            assertThat(new BucketLayout(redis, new Keys(PREFIX, 8)).needsMigration()).isFalse();
            System.out.printf("BucketLayoutClusterTest: %s; %s; %d ms with the cluster start%n", grown, shrunk,
                    (System.nanoTime() - start) / 1_000_000);
        }
    }

    private static void assertPlaced(JedisCluster redis, BucketSnapshot before, int buckets) {
        BucketSnapshot after = BucketSnapshot.read(redis, PREFIX, 40);
        assertThat(after.problems()).isEmpty();
        assertThat(after.staleReadyEntries()).isZero();
        assertThat(after.differencesFrom(before.placedBy((id, p) -> Buckets.of(id, buckets)))).isEmpty();
    }

    /** Writes the stages straight into the bucket structures (the store's own verbs assume a single Redis). */
    private static void seed(JedisCluster redis, Keys keys) {
        long now = System.currentTimeMillis();
        try (AbstractPipeline pipe = redis.pipelined()) {
            for (int i = 0; i < JOBS; i++) {
                String id = PREFIX + "-" + i;
                int b = Buckets.of(id, keys.buckets());
                Job job = new Job(id, "pull-" + (i % 3), null, null, HOUR, 0, 0, 0, "body " + i, now);
                pipe.hset(keys.pool(b), id, JobCodec.encode(job));
                switch (i % 5) {
                    case 0 -> pipe.zadd(keys.delay(b), job.dueTime(), id);
                    case 1 -> {
                        pipe.zadd(keys.delay(b), job.dueTime(), id);
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
                pipe.rpush(keys.ready(b, "pull-0"), "finished-" + b);
            }
            pipe.sync();
        }
    }
}
