package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;

/**
 * What happens to a job whose send failed: tried again after an exponential backoff, or buried as dead when its tries
 * are used up or its ttl (counted from its due time) has run out.
 */
public final class RetryPolicy {
    public enum Verdict {
        RETRY,
        DEAD,
        EXPIRED
    }

    /** The verdict and, for RETRY, the new due time. */
    public record Decision(Verdict verdict, long retryAt) {}

    private final long baseMs;
    private final long capMs;
    private final int defaultTries;

    public RetryPolicy(long baseMs, long capMs, int defaultTries) {
        this.baseMs = baseMs;
        this.capMs = capMs;
        this.defaultTries = defaultTries;
    }

    /** {@code attemptsSoFar} counts the send that just failed. */
    public Decision decide(Job job, int attemptsSoFar, long now) {
        if (job.getTtl() > 0 && now >= job.dueTime() + job.getTtl()) {
            return new Decision(Verdict.EXPIRED, 0);
        }
        if (attemptsSoFar >= triesOf(job)) {
            return new Decision(Verdict.DEAD, 0);
        }
        return new Decision(Verdict.RETRY, now + backoff(attemptsSoFar));
    }

    /** The job's tries, or the default for a job that names none. */
    public int triesOf(Job job) {
        return job.getTries() > 0 ? job.getTries() : defaultTries;
    }

    /** base * 2^(n-1), capped; n = failed attempts so far. */
    long backoff(int failedAttempts) {
        int shift = Math.min(Math.max(failedAttempts - 1, 0), 30);
        long delay = baseMs << shift;
        return delay <= 0 || delay > capMs ? capMs : delay;
    }
}
