package io.mykit.delay.queue.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

import java.util.ArrayList;
import java.util.List;

/**
 * The bucket count Redis places the jobs by, and the migration that follows a change of {@code mykit.delay.buckets}.
 * {@link #ensure()} must run before any timer, sweeper, restore or request touches the buckets, with no other gateway
 * of this key prefix running: it is the only writer while it moves jobs.
 *
 * <pre>
 * {prefix}:layout         N   every job is in bucket Buckets.of(id, N)
 * {prefix}:layout-target  M   a migration N -> M is under way: each job is in its bucket under N, under M, or both
 * </pre>
 * <ul>
 * <li>No record (first start, or data of a version without it): the configured count is recorded and the jobs in
 *     Redis are taken to be placed by it.</li>
 * <li>Recorded N, configured M: target M is recorded, the jobs move (see {@link BucketMover}), then layout M is
 *     recorded and the target deleted.</li>
 * <li>A target found at start is a migration a crash interrupted: it is finished first, to the count it recorded,
 *     whatever is configured now; then the jobs move on to the configured count if that differs (a restart with the
 *     old count moves them back). Nothing is refused: every pass ends with each job in exactly one bucket.</li>
 * </ul>
 */
public final class BucketLayout {
    private static final Logger log = LoggerFactory.getLogger(BucketLayout.class);

    /**
     * Told after each page of jobs was written to its new buckets and before it leaves its old one, with the jobs
     * written so far; a test throws from it to stop a migration where a crash would.
     */
    @FunctionalInterface
    public interface PageHook {
        void written(long jobsSoFar);
    }

    private final UnifiedJedis redis;
    private final Keys keys;
    private final BucketMover mover;

    /** {@code keys.buckets()} is the configured count the jobs must end up placed by. */
    public BucketLayout(UnifiedJedis redis, Keys keys) {
        this(redis, keys, jobsSoFar -> { });
    }

    public BucketLayout(UnifiedJedis redis, Keys keys, PageHook hook) {
        this.redis = redis;
        this.keys = keys;
        this.mover = new BucketMover(redis, keys, hook);
    }

    /**
     * True when {@link #ensure()} would move jobs: Redis records another count, or a migration that was interrupted.
     * False when it records the configured count, or none ({@link #ensure()} then only records it): safe while other
     * gateways of the prefix run.
     */
    public boolean needsMigration() {
        List<String> record = redis.mget(keys.layout(), keys.layoutTarget());
        return record.get(1) != null || record.get(0) != null && !Integer.toString(keys.buckets()).equals(record.get(0));
    }

    /** Places every job by the configured count, recording it; returns the migrations it ran (none when current). */
    public List<MigrationReport> ensure() {
        int wanted = keys.buckets();
        // both keys carry the {prefix} hash tag: one slot, one MGET
        List<String> record = redis.mget(keys.layout(), keys.layoutTarget());
        if (record.get(0) == null) {
            if (record.get(1) != null) {
                throw new IllegalStateException(keys.layoutTarget() + " is set but " + keys.layout() + " is not: "
                        + "cannot tell where the jobs are");
            }
            redis.set(keys.layout(), Integer.toString(wanted));
            log.info("No bucket layout recorded in {}: recorded {} buckets", keys.layout(), wanted);
            return List.of();
        }
        List<MigrationReport> reports = new ArrayList<>();
        int current = count(keys.layout(), record.get(0));
        if (record.get(1) != null) {
            int interrupted = count(keys.layoutTarget(), record.get(1));
            log.warn("A migration of the buckets from {} to {} was interrupted: finishing it", current, interrupted);
            reports.add(migrate(current, interrupted));
            current = interrupted;
        }
        if (current != wanted) {
            redis.set(keys.layoutTarget(), Integer.toString(wanted));
            reports.add(migrate(current, wanted));
        }
        return reports;
    }

    private MigrationReport migrate(int from, int to) {
        log.info("Moving jobs from {} to {} buckets (mykit.delay.buckets changed)", from, to);
        MigrationReport report = mover.move(from, to);
        // layout first: a crash between the two leaves target = layout, whose re-run moves nothing
        redis.set(keys.layout(), Integer.toString(to));
        redis.del(keys.layoutTarget());
        log.info("Bucket layout changed, {}", report);
        return report;
    }

    private static int count(String key, String value) {
        try {
            int buckets = Integer.parseInt(value);
            if (buckets >= 1) {
                return buckets;
            }
        } catch (NumberFormatException e) {
            // reported below with the key
        }
        throw new IllegalStateException(key + " holds '" + value + "', not a bucket count");
    }
}
