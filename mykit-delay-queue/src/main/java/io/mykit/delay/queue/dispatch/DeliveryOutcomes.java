package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.metrics.QueueMetrics;
import io.mykit.delay.queue.store.Delivery;
import io.mykit.delay.queue.store.Fencing;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Settles a sent batch of one bucket in a few round trips: confirmed jobs leave Redis and are journaled Finish first,
 * so nothing after can lose that; failed ones go back to their bucket with a backoff (journaled Delay, attempts+1) or,
 * out of tries or ttl, are parked in flight and buried ({@link #bury}). If settling itself fails the jobs left stay in
 * flight: the sweeper returns those not yet parked, and buries the parked ones.
 */
public class DeliveryOutcomes {
    /** A job to be buried stays in flight this long (Redis clock); if its burial fails, a later sweep buries it. */
    public static final long BURIAL_WINDOW_MS = 60_000;

    private static final Logger log = LoggerFactory.getLogger(DeliveryOutcomes.class);

    private final Delivery store;
    private final Fencing fencing;
    private final Journal journal;
    private final StateChangeWriter states;
    private final RetryPolicy policy;
    private final BucketWaker wakeBucket;
    private final Clock clock;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    public DeliveryOutcomes(
            Delivery store,
            Fencing fencing,
            Journal journal,
            StateChangeWriter states,
            RetryPolicy policy,
            BucketWaker wakeBucket,
            Clock clock) {
        this.store = store;
        this.fencing = fencing;
        this.journal = journal;
        this.states = states;
        this.policy = policy;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
    }

    /** Where deliveries, failures, retries and dead letters are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** Buckets whose jobs this node may no longer hand over: a newer ownership term claimed them (see the store). */
    public java.util.Set<Integer> outranked(java.util.Collection<Integer> buckets) {
        return fencing.outranked(buckets);
    }

    /**
     * {@link #settle(String, int, List, List)} for a caller that does not name its target (the topic's route counts).
     */
    public void settle(int bucket, List<Job> delivered, List<SendFailure> failed) {
        settle(null, bucket, delivered, failed);
    }

    /** Settles what {@code target} (its name) did with a hand-over of one bucket. */
    public void settle(String target, int bucket, List<Job> delivered, List<SendFailure> failed) {
        long now = clock.millis();
        if (!delivered.isEmpty()) {
            List<String> gone = delivered.stream().map(Job::getId).toList();
            try (StateChangeWriter.Ending ending = states.beginEnding()) {
                store.forget(bucket, gone);
                // submitted at once: a failure below (a Dead write) must not leave delivered jobs pending in the
                // journal
                states.submitAll(gone.stream()
                        .map(id -> StateChange.of(id, JobStatus.Finish, now))
                        .toList());
            }
            delivered.forEach(job -> metrics.delivered(target, job));
        }
        List<Job> dead = new ArrayList<>();
        List<Job> retries = new ArrayList<>();
        List<Long> retryAt = new ArrayList<>();
        for (SendFailure failure : failed) {
            Job job = failure.job();
            int attempts = job.getAttempts() + 1;
            RetryPolicy.Decision decision = policy.decide(job, attempts, now);
            metrics.failed(target, job);
            boolean retry = decision.verdict() == RetryPolicy.Verdict.RETRY;
            String next = retry ? "retry at " + decision.retryAt() : "dead (" + decision.verdict() + ")";
            logFailure(target, bucket, job, attempts, next, failure.reason());
            if (retry) {
                job.setAttempts(attempts);
                retries.add(job);
                retryAt.add(decision.retryAt());
                metrics.retried(target, job);
            } else {
                // its record counts its tries used up: a sweep before its burial is done buries it, never sends it
                int tries = policy.triesOf(job);
                job.setTries(tries);
                job.setAttempts(Math.max(attempts, tries));
                dead.add(job);
            }
        }
        if (!retries.isEmpty()) {
            store.retry(bucket, retries, retryAt);
            // journaled before the timer is woken, so the log keeps the real order
            states.submitAll(retries.stream()
                    .map(job -> StateChange.of(job.getId(), JobStatus.Delay, now))
                    .toList());
            wakeBucket.wake(
                    bucket, retryAt.stream().mapToLong(Long::longValue).min().orElse(now));
        }
        buryParked(bucket, dead);
    }

    /**
     * Parks failed jobs out of tries or ttl in flight ({@link Delivery#park}) and buries those parked. A job that is no
     * longer in flight was swept back meanwhile: the hand-over that has it now settles it.
     */
    private void buryParked(int bucket, List<Job> dead) {
        if (dead.isEmpty()) {
            return;
        }
        Set<String> parked = new HashSet<>(store.park(bucket, dead, BURIAL_WINDOW_MS));
        List<Job> buried = new ArrayList<>(parked.size());
        for (Job job : dead) {
            if (parked.contains(job.getId())) {
                buried.add(job);
            } else {
                log.warn(
                        "job {} is out of tries but no longer in flight (swept back while it was sent): left to the"
                                + " hand-over that has it now",
                        job.getId());
            }
        }
        bury(bucket, buried);
    }

    /**
     * Buries jobs of one bucket that are out of tries or ttl: journaled Dead synchronously, then dropped from Redis.
     * Each must be parked in flight so that nothing hands it out meanwhile: a pull job whose reservations reached its
     * tries is (release, sweep), a broker job is once {@link Delivery#park} marked its record spent. A journal failure,
     * a failed forget or a crash in between leaves them there, and the sweeper buries them again: nothing is dropped
     * unrecorded, and nothing buried is sent again (the journal keeps the first Dead whatever comes later).
     */
    public void bury(int bucket, List<Job> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        long now = clock.millis();
        Map<String, Integer> attempts = new HashMap<>();
        jobs.forEach(job -> attempts.put(job.getId(), job.getAttempts()));
        journal.bury(
                jobs.stream()
                        .map(job -> StateChange.of(job.getId(), JobStatus.Dead, now))
                        .toList(),
                attempts);
        store.forget(bucket, jobs.stream().map(Job::getId).toList());
        jobs.forEach(job -> metrics.dead(null, job));
    }

    /** One line per failed hand-over, with the job id in the MDC as well (structured logs index it). */
    private static void logFailure(String target, int bucket, Job job, int attempts, String next, String reason) {
        String outer = MDC.get("jobId");
        MDC.put("jobId", job.getId());
        try {
            log.warn(
                    "delivery failed: jobId={} topic={} bucket={} target={} attempt={} next={}: {}",
                    job.getId(),
                    job.getTopic(),
                    bucket,
                    target == null ? "(route)" : target,
                    attempts,
                    next,
                    reason);
        } finally {
            if (outer == null) {
                MDC.remove("jobId");
            } else {
                MDC.put("jobId", outer);
            }
        }
    }
}
