package io.mykit.delay.test.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.store.BucketLayout;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.MigrationReport;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.PrefixedRedis;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/**
 * Changing the bucket count moves every job to its new bucket in the stage it had (store level, the shared Redis, a key
 * prefix per test). The jobs are seeded through the store's own verbs ({@link StageSeeder}) and compared with a full
 * read of the buckets ({@link BucketSnapshot}) before and after.
 */
class BucketLayoutTest {
    /** Above every bucket count used here, so a job left in a bucket it should have left is seen. */
    private static final int SCAN_BUCKETS = 40;

    private static PrefixedRedis shared;
    private static UnifiedJedis redis;
    /** The store's connection abstraction over {@link #redis}, as the migration runs on it. */
    private static SingleRedis nodes;

    private String prefix;

    @BeforeAll
    static void connect() {
        shared = PrefixedRedis.connect();
        redis = shared.client();
        nodes = shared.nodes();
    }

    @AfterAll
    static void disconnect() {
        shared.close();
    }

    @AfterEach
    void deleteKeys() {
        shared.deleteKeys(prefix);
    }

    /** A fresh prefix with jobs seeded under {@code buckets}, recorded as that layout by a first start. */
    private BucketSnapshot seed(int buckets, int jobs) {
        prefix = "layout-" + UUID.randomUUID().toString().substring(0, 8);
        Keys keys = new Keys(prefix, buckets);
        assertThat(new BucketLayout(nodes, keys).needsMigration())
                .as("nothing recorded yet")
                .isFalse();
        assertThat(new BucketLayout(nodes, keys).ensure())
                .as("a first start only records its count")
                .isEmpty();
        assertThat(redis.get(keys.layout())).isEqualTo(Integer.toString(buckets));
        StageSeeder.seed(new RedisDelayStore(nodes, keys), prefix, jobs);
        BucketSnapshot before = BucketSnapshot.read(redis, prefix, SCAN_BUCKETS);
        assertThat(before.problems()).as("seeded state is sound").isEmpty();
        assertThat(before.jobs()).hasSize(jobs);
        assertThat(before.stageCounts())
                .as("every stage seeded")
                .containsOnlyKeys("waiting", "in flight", "ready", "reserved")
                .allSatisfy((stage, n) -> assertThat(n).as(stage).isPositive());
        assertThat(before.staleReadyEntries())
                .as("ready entries of ended jobs seeded")
                .isPositive();
        assertThat(BucketSnapshot.keysMatching(redis, "{" + prefix + ":b*}:ended"))
                .as("tombstones seeded")
                .isNotEmpty();
        return before;
    }

    private BucketLayout layout(int buckets) {
        return new BucketLayout(nodes, new Keys(prefix, buckets));
    }

    /** The end state of a migration to {@code buckets}: every job once, in its bucket, as it was; records final. */
    private BucketSnapshot assertPlacedBy(int buckets, BucketSnapshot before) {
        BucketSnapshot after = BucketSnapshot.read(redis, prefix, SCAN_BUCKETS);
        assertThat(after.problems()).isEmpty();
        assertThat(after.staleReadyEntries())
                .as("ready entries of jobs that left are dropped")
                .isZero();
        assertThat(after.jobs()).hasSameSizeAs(before.jobs());
        assertThat(after.differencesFrom(before.placedBy((id, p) -> Buckets.of(id, buckets))))
                .isEmpty();
        assertThat(after.stageCounts()).isEqualTo(before.stageCounts());
        Keys keys = new Keys(prefix, buckets);
        assertThat(redis.get(keys.layout())).isEqualTo(Integer.toString(buckets));
        assertThat(redis.exists(keys.layoutTarget())).isFalse();
        return after;
    }

    /** Jobs per stage whose bucket differs between the two counts: what a migration must report as moved. */
    private static long leaving(BucketSnapshot before, int to, String stage) {
        return before.jobs().entrySet().stream()
                .filter(e -> Buckets.of(e.getKey(), to) != e.getValue().bucket())
                .filter(e -> e.getValue().stage().equals(stage))
                .count();
    }

    @Test
    void growing_16_to_32_with_100k_jobs_moves_each_once_in_its_stage_and_a_second_run_is_a_no_op() {
        long seedStart = System.nanoTime();
        BucketSnapshot before = seed(16, 100_000);
        System.out.printf(
                "BucketLayoutTest: seeded %d jobs in %d ms, stages %s%n",
                before.jobs().size(), (System.nanoTime() - seedStart) / 1_000_000, before.stageCounts());

        assertThat(layout(32).needsMigration()).isTrue();
        long start = System.nanoTime();
        List<MigrationReport> reports = layout(32).ensure();
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("BucketLayoutTest: 16 -> 32 took %d ms: %s%n", millis, reports);

        assertThat(reports).hasSize(1);
        MigrationReport report = reports.get(0);
        assertThat(report.waiting()).isEqualTo(leaving(before, 32, "waiting"));
        assertThat(report.inFlight()).isEqualTo(leaving(before, 32, "in flight"));
        assertThat(report.ready()).isEqualTo(leaving(before, 32, "ready"));
        assertThat(report.moved()).as("about half the jobs change bucket").isBetween(45_000L, 55_000L);
        assertThat(report.alreadyThere()).isZero();
        BucketSnapshot migrated = assertPlacedBy(32, before);
        assertThat(layout(32).needsMigration()).isFalse();

        assertThat(layout(32).ensure()).as("second run").isEmpty();
        assertThat(BucketSnapshot.read(redis, prefix, SCAN_BUCKETS).differencesFrom(migrated.jobs()))
                .isEmpty();
    }

    @Test
    void a_migration_stopped_half_way_with_jobs_in_both_buckets_is_finished_by_the_next_start() {
        BucketSnapshot before = seed(16, 20_000);
        BucketLayout crashing = new BucketLayout(nodes, new Keys(prefix, 32), written -> {
            if (written >= 4_000) {
                throw new IllegalStateException("crash after " + written + " jobs written");
            }
        });
        assertThatThrownBy(crashing::ensure).hasMessageStartingWith("crash after");

        Keys keys = new Keys(prefix, 32);
        assertThat(redis.get(keys.layout())).isEqualTo("16");
        assertThat(redis.get(keys.layoutTarget())).isEqualTo("32");
        assertThat(layout(32).needsMigration()).isTrue();
        BucketSnapshot halfWay = BucketSnapshot.read(redis, prefix, SCAN_BUCKETS);
        assertThat(halfWay.inSeveralBuckets())
                .as("the last page was written, not yet removed")
                .isNotEmpty();

        List<MigrationReport> reports = layout(32).ensure();
        assertThat(reports).hasSize(1);
        assertThat(reports.get(0).alreadyThere())
                .isEqualTo(halfWay.inSeveralBuckets().size());
        assertPlacedBy(32, before);
    }

    @Test
    void a_restart_with_the_old_count_after_an_interrupted_migration_finishes_it_then_moves_the_jobs_back() {
        BucketSnapshot before = seed(16, 10_000);
        assertThatThrownBy(new BucketLayout(nodes, new Keys(prefix, 32), written -> {
                    if (written >= 2_000) {
                        throw new IllegalStateException("crash");
                    }
                })::ensure)
                .hasMessage("crash");

        List<MigrationReport> reports = layout(16).ensure();
        assertThat(reports)
                .extracting(MigrationReport::from, MigrationReport::to)
                .containsExactly(tuple(16, 32), tuple(32, 16));
        // placed by 16 again is exactly where they started: same buckets, stages, scores and reservations
        assertPlacedBy(16, before);
    }

    @Test
    void shrinking_32_to_8_moves_every_job_and_leaves_nothing_in_the_buckets_that_are_gone() {
        BucketSnapshot before = seed(32, 5_000);
        List<String> marked = new java.util.ArrayList<>(new RedisDelayStore(nodes, new Keys(prefix, 32))
                .finishMarksBefore(Long.MAX_VALUE, 10_000)
                .keySet());
        assertThat(marked)
                .as("finish marks seeded (finishes of jobs in flight)")
                .isNotEmpty();
        List<MigrationReport> reports = layout(8).ensure();
        System.out.println("BucketLayoutTest: " + reports);

        assertThat(reports).singleElement().satisfies(report -> {
            assertThat(report.bucketsRetired()).isEqualTo(24);
            assertThat(report.tombstonesDropped())
                    .as("tombstones of the retired buckets")
                    .isPositive();
            assertThat(report.moved())
                    .isEqualTo(before.jobs().values().stream()
                            .filter(p -> p.bucket() >= 8)
                            .count());
        });
        assertPlacedBy(8, before);
        Keys eight = new Keys(prefix, 8);
        for (String id : marked) {
            assertThat(redis.zscore(eight.finished(Buckets.of(id, 8)), id))
                    .as("finish mark of %s in its new bucket", id)
                    .isNotNull();
        }
        for (int b = 8; b < 32; b++) {
            assertThat(BucketSnapshot.keysMatching(redis, "{" + prefix + ":b" + b + "}*"))
                    .as("keys of bucket " + b)
                    .isEmpty();
        }
        assertThat(layout(8).ensure()).as("second run").isEmpty();
    }

    @Test
    void the_epoch_marks_follow_a_migration_and_a_mark_lost_before_it_still_reads_as_a_loss() {
        seed(16, 2_000);
        RedisDelayStore store16 = new RedisDelayStore(nodes, new Keys(prefix, 16));
        assertThat(store16.hasEpoch())
                .as("a first layout record marks nothing: a missing layout may be a loss")
                .isFalse();
        // as the Redis-loss watch leaves them once it has checked Redis
        store16.writeEpoch();

        layout(32).ensure();
        assertThat(new RedisDelayStore(nodes, new Keys(prefix, 32)).hasEpoch())
                .as("every new bucket marked")
                .isTrue();

        // a loss the shrink would hide: bucket 20 no longer exists under 8, so its own mark is never checked again
        redis.del(new Keys(prefix, 32).epoch(20));
        layout(8).ensure();
        assertThat(new RedisDelayStore(nodes, new Keys(prefix, 8)).hasEpoch())
                .as("the loss is still noticed")
                .isFalse();
        for (int b = 8; b < 32; b++) {
            assertThat(redis.exists(new Keys(prefix, 32).epoch(b)))
                    .as("mark of retired bucket " + b)
                    .isFalse();
        }
    }
}
