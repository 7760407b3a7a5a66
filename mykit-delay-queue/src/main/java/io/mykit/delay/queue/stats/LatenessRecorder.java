package io.mykit.delay.queue.stats;

import io.mykit.delay.common.model.Job;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * How late this node handed due jobs to their targets, for the last {@link #CAPACITY} hand-overs: a ring of (time,
 * lateness) pairs in memory, so recording costs two array writes and nothing survives a restart. Lateness counts from
 * the due time the job had as it was handed over ({@link Job#handOverDue()}), so a job released with a delay, or a
 * retry after its backoff, is not counted late by the time it waited on purpose.
 */
public class LatenessRecorder {
    static final int CAPACITY = 1024;

    private final Clock clock;
    private final long[] at = new long[CAPACITY];
    private final long[] lateMs = new long[CAPACITY];
    private long recorded;

    public LatenessRecorder(Clock clock) {
        this.clock = clock;
    }

    /** Called as the timer hands a batch to its targets. */
    public void handedOver(List<Job> jobs) {
        long now = clock.millis();
        synchronized (this) {
            for (Job job : jobs) {
                int slot = (int) (recorded++ % CAPACITY);
                at[slot] = now;
                lateMs[slot] = Math.max(0, now - job.handOverDue());
            }
        }
    }

    /** One hand-over: when, and how many ms after the job's due time. */
    public record Sample(long at, long lateMs) {}

    /**
     * Percentiles over the samples of the last {@code windowMs}, and the newest {@code recent} samples, oldest first.
     */
    public record Summary(
            long windowMs, int samples, Long p50Ms, Long p95Ms, Long p99Ms, Long maxMs, List<Sample> recent) {}

    public Summary summary(long windowMs, int recent) {
        long now = clock.millis();
        List<Sample> kept = new ArrayList<>();
        synchronized (this) {
            long first = Math.max(0, recorded - CAPACITY);
            for (long i = first; i < recorded; i++) {
                int slot = (int) (i % CAPACITY);
                if (now - at[slot] <= windowMs) {
                    kept.add(new Sample(at[slot], lateMs[slot]));
                }
            }
        }
        if (kept.isEmpty()) {
            return new Summary(windowMs, 0, null, null, null, null, List.of());
        }
        long[] sorted = kept.stream().mapToLong(Sample::lateMs).sorted().toArray();
        return new Summary(
                windowMs,
                sorted.length,
                percentile(sorted, 50),
                percentile(sorted, 95),
                percentile(sorted, 99),
                sorted[sorted.length - 1],
                List.copyOf(kept.subList(Math.max(0, kept.size() - recent), kept.size())));
    }

    /** Nearest-rank percentile of sorted values. */
    private static long percentile(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
