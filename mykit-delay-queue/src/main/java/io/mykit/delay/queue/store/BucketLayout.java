package io.mykit.delay.queue.store;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * The bucket count Redis places the jobs by, and the migration that follows a change of {@code mykit.delay.buckets}.
 * {@link #ensure()} must run before any timer, sweeper, restore or request touches the buckets, with no other gateway
 * of this key prefix running: it is the only writer while it moves jobs.
 *
 * <pre>
 * {prefix}:layout         N   every job is in bucket Buckets.of(id, N)
 * {prefix}:layout-target  M   a migration N -> M is under way: each job is in its bucket under N, under M, or both
 * {prefix:bI}:epoch           carried across a migration: set for every bucket I &lt; M when all of 0..N-1 were set
 * </pre>
 *
 * <ul>
 *   <li>No record (first start, or data written without one): the configured count is recorded and the jobs in Redis
 *       are taken to be placed by it.
 *   <li>Recorded N, configured M: target M is recorded, the jobs move (see {@link BucketMover}), then layout M is
 *       recorded and the target deleted.
 *   <li>A target found at start is a migration a crash interrupted: it is finished first, to the count it recorded,
 *       whatever is configured now; then the jobs move on to the configured count if that differs (a restart with the
 *       old count moves them back). Nothing is refused: every pass ends with each job in exactly one bucket.
 *   <li>The epoch marks ({@code RedisLossWatch}) follow the jobs: when Redis held the mark of every old bucket, it held
 *       all the data, so every new bucket gets its mark (else the new buckets would read as lost and start a needless
 *       full restore). When one was missing, every new bucket's mark goes, so the loss is still noticed whatever bucket
 *       it was in. A first record writes no mark: a layout missing may itself be the loss (Redis restarted empty).
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

    /** Jobs one slice_legacy.lua call moves. */
    private static final int LEGACY_PAGE = 1_000;

    private final RedisNodes nodes;
    private final UnifiedJedis redis;
    private final Keys keys;
    private final BucketMover mover;

    /** {@code keys.buckets()} is the configured count the jobs must end up placed by. */
    public BucketLayout(RedisNodes nodes, Keys keys) {
        this(nodes, keys, jobsSoFar -> {});
    }

    public BucketLayout(RedisNodes nodes, Keys keys, PageHook hook) {
        this.nodes = nodes;
        this.redis = nodes.client();
        this.keys = keys;
        this.mover = new BucketMover(nodes, keys, hook);
    }

    /**
     * True when {@link #ensure()} would move jobs: Redis records another count, or a migration that was interrupted.
     * False when it records the configured count, or none ({@link #ensure()} then only records it): safe while other
     * gateways of the prefix run.
     */
    public boolean needsMigration() {
        List<String> record = redis.mget(keys.layout(), keys.layoutTarget());
        return record.get(1) != null
                || record.get(0) != null && !Integer.toString(keys.buckets()).equals(record.get(0));
    }

    /** True when waiting jobs sit in the single delay ZSET of the layout without due slices (see DelaySlices). */
    public boolean holdsLegacyDelays() {
        return legacyWaiting() > 0;
    }

    /** Places every job by the configured count, recording it; returns the migrations it ran (none when current). */
    public List<MigrationReport> ensure() {
        sliceLegacyDelays();
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

    /** Jobs in the old delay ZSETs of every bucket a recorded or configured count names. */
    private long legacyWaiting() {
        return legacyWaiting(bucketsInUse());
    }

    private long legacyWaiting(int buckets) {
        List<Response<Long>> sizes = new ArrayList<>(buckets);
        try (NodePipelines<?> pipes = nodes.pipelines()) {
            for (int b = 0; b < buckets; b++) {
                sizes.add(pipes.on(keys.legacyDelay(b)).zcard(keys.legacyDelay(b)));
            }
            pipes.sync();
        }
        return sizes.stream().mapToLong(Response::get).sum();
    }

    /** Moves the waiting jobs of the one-ZSET layout into the due slices, before any bucket migration reads them. */
    private void sliceLegacyDelays() {
        int buckets = bucketsInUse();
        long before = legacyWaiting(buckets);
        if (before == 0) {
            return;
        }
        log.info("{} waiting jobs are in the delay ZSETs of an older version: moving them into the due slices", before);
        MigrationScripts scripts = new MigrationScripts(nodes);
        for (int b = 0; b < buckets; b++) {
            List<String> bucketKeys = List.of(keys.legacyDelay(b), keys.due(b));
            MigrationScripts.Call call =
                    new MigrationScripts.Call(scripts.sliceLegacy, bucketKeys, List.of(Integer.toString(LEGACY_PAGE)));
            long left;
            do {
                // each call moves a page atomically and answers what is left
                left = (Long) scripts.run(List.of(call)).get(0);
            } while (left > 0);
        }
        log.info("Moved {} waiting jobs into the due slices", before);
    }

    /** The largest of the recorded, target and configured counts: every bucket index that may hold jobs. */
    private int bucketsInUse() {
        List<String> record = redis.mget(keys.layout(), keys.layoutTarget());
        int most = keys.buckets();
        for (String count : record) {
            if (count != null && count.matches("\\d{1,6}")) {
                most = Math.max(most, Integer.parseInt(count));
            }
        }
        return most;
    }

    private MigrationReport migrate(int from, int to) {
        log.info("Moving jobs from {} to {} buckets (mykit.delay.buckets changed)", from, to);
        MigrationReport report = mover.move(from, to);
        // before the record: a crash after it would leave the new buckets unmarked, a crash before re-runs this
        carryEpochMarks(from, to);
        // layout first: a crash between the two leaves target = layout, whose re-run moves nothing
        redis.set(keys.layout(), Integer.toString(to));
        redis.del(keys.layoutTarget());
        dropEpochMarks(to, from);
        log.info("Bucket layout changed, {}", report);
        return report;
    }

    /** Marks every bucket of the new count when every old bucket was marked, else unmarks them (see the class doc). */
    private void carryEpochMarks(int from, int to) {
        boolean whole = allMarked(from);
        String now = Long.toString(System.currentTimeMillis());
        try (NodePipelines<?> pipes = nodes.pipelines()) {
            for (int b = 0; b < to; b++) {
                if (whole) {
                    pipes.on(keys.epoch(b)).set(keys.epoch(b), now);
                } else {
                    pipes.on(keys.epoch(b)).del(keys.epoch(b));
                }
            }
            pipes.sync();
        }
        if (!whole) {
            log.warn(
                    "Redis lacked the epoch mark of a bucket before the migration {} -> {}: the Redis-loss watch will "
                            + "restore from the journal",
                    from,
                    to);
        }
    }

    private boolean allMarked(int buckets) {
        List<Response<Boolean>> marks = new ArrayList<>(buckets);
        try (NodePipelines<?> pipes = nodes.pipelines()) {
            for (int b = 0; b < buckets; b++) {
                marks.add(pipes.on(keys.epoch(b)).exists(keys.epoch(b)));
            }
            pipes.sync();
        }
        return marks.stream().allMatch(Response::get);
    }

    /** The marks of buckets {@code first..end-1}, which no longer exist (none when the count grew). */
    private void dropEpochMarks(int first, int end) {
        try (NodePipelines<?> pipes = nodes.pipelines()) {
            for (int b = first; b < end; b++) {
                pipes.on(keys.epoch(b)).del(keys.epoch(b));
            }
            pipes.sync();
        }
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
