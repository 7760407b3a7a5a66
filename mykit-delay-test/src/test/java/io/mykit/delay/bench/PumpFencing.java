package io.mykit.delay.bench;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.PumpResult;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.WaitingSlices;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.JedisPooled;

/**
 * What fencing costs one pump, on the bench's Redis: {@link RedisDelayStore#pumpDue} of one bucket holding
 * {@code batch} due jobs, through a store with an empty token (standalone: pump_due.lua does not read the owner key)
 * and through one whose token was claimed (cluster: it reads and compares it). Only the pump is timed; between pumps
 * the same jobs are made due again (one untimed pipeline), so every pump moves a full batch.
 *
 * <pre>
 *   pair i:  A B  (i even)  or  B A  (i odd)     A = empty token, B = claimed token, back to back
 *   overhead = median over pairs of (B - A)      drift and other load on the machine hit both pumps of a pair
 * </pre>
 */
final class PumpFencing {
    private static final int BUCKET = 0;
    private static final long HAND_OVER_MS = 30_000;
    /** A term number past 2^53, as ZooKeeper's zxids are once the epoch is above 0. */
    private static final long TERM = (1L << 53) + 1;

    /** Per-pump times (ns) of each kind, and the per-pair differences B - A (ns). */
    record Result(int batch, Histogram unfencedNs, Histogram fencedNs, Histogram differenceNs) {
        /** The 95% confidence interval of the median difference (ns), from the binomial ranks around the middle. */
        long[] medianInterval() {
            int n = differenceNs.count();
            double half = 0.98 * Math.sqrt(n);
            return new long[] {
                differenceNs.percentile(100.0 * Math.max(1, Math.floor(n / 2.0 - half)) / n),
                differenceNs.percentile(100.0 * Math.min(n, Math.ceil(n / 2.0 + half) + 1) / n)
            };
        }
    }

    private PumpFencing() {}

    /** {@code pairs} pairs of pumps, after {@code warmupPairs} unrecorded ones. */
    static Result measure(BenchSettings settings, int batch, int pairs, int warmupPairs) {
        String prefix = BenchGateway.newKeyPrefix();
        Keys keys = new Keys(prefix, 1);
        JedisPooled redis = new JedisPooled(settings.redisHost(), settings.redisPort());
        try (SingleRedis nodes = new SingleRedis(redis)) {
            RedisDelayStore unfenced = new RedisDelayStore(nodes, keys);
            FenceTokens tokens = new FenceTokens(1);
            RedisDelayStore fenced = new RedisDelayStore(nodes, keys, tokens);
            unfenced.loadScripts();
            fenced.loadScripts();
            tokens.set(BUCKET, FenceTokens.format(TERM));
            fenced.claim(BUCKET, tokens.token(BUCKET));

            long due = System.currentTimeMillis() - 60_000;
            List<Job> jobs = new ArrayList<>(batch);
            String body = "x".repeat(settings.bodyBytes());
            for (int i = 0; i < batch; i++) {
                jobs.add(new Job("fence-" + i, "bench-fence", null, null, 0, 0, 0, 0, body, due));
            }
            unfenced.add(jobs);

            Histogram a = new Histogram();
            Histogram b = new Histogram();
            Histogram difference = new Histogram();
            for (int pair = -warmupPairs; pair < pairs; pair++) {
                long nsA;
                long nsB;
                // alternate which goes first, so neither gains from following the other
                if ((pair & 1) == 0) {
                    nsA = pump(redis, keys, unfenced, jobs);
                    nsB = pump(redis, keys, fenced, jobs);
                } else {
                    nsB = pump(redis, keys, fenced, jobs);
                    nsA = pump(redis, keys, unfenced, jobs);
                }
                if (pair >= 0) {
                    a.record(nsA);
                    b.record(nsB);
                    difference.record(nsB - nsA);
                }
            }
            return new Result(batch, a, b, difference);
        } finally {
            BenchGateway.deleteKeys(settings, prefix);
        }
    }

    /** One timed pump of the whole batch through {@code store} (ns), then its jobs made due again, untimed. */
    private static long pump(JedisPooled redis, Keys keys, RedisDelayStore store, List<Job> jobs) {
        long start = System.nanoTime();
        PumpResult result = store.pumpDue(BUCKET, System.currentTimeMillis(), jobs.size(), HAND_OVER_MS);
        long ns = System.nanoTime() - start;
        if (result.jobs().size() != jobs.size()) {
            throw new IllegalStateException("a pump moved " + result.jobs().size() + " jobs, expected " + jobs.size());
        }
        makeDueAgain(redis, keys, jobs);
        return ns;
    }

    /** Puts the pumped jobs back from in-flight into the delay set with their due time, in one round trip. */
    private static void makeDueAgain(JedisPooled redis, Keys keys, List<Job> jobs) {
        try (AbstractPipeline pipe = redis.pipelined()) {
            pipe.del(keys.inflight(BUCKET));
            for (Job job : jobs) {
                WaitingSlices.add(pipe, keys, BUCKET, job.getId(), job.dueTime());
            }
            pipe.sync();
        }
    }
}
