package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Settles a sent batch of one bucket in a few round trips: confirmed jobs leave Redis and are journaled Finish;
 * failed ones go back to their bucket with a backoff (journaled Delay, attempts+1) or, out of tries or ttl, are
 * journaled Dead (synchronously, before Redis drops them, so a crash in between cannot leave a job pending in the
 * journal and absent from Redis). If settling itself fails the jobs stay in flight and the sweeper returns them.
 */
public class DeliveryOutcomes {
    private static final Logger log = LoggerFactory.getLogger(DeliveryOutcomes.class);

    private final DelayStore store;
    private final Journal journal;
    private final StateChangeWriter states;
    private final RetryPolicy policy;
    private final BiConsumer<Integer, Long> wakeBucket;
    private final Clock clock;

    public DeliveryOutcomes(DelayStore store, Journal journal, StateChangeWriter states, RetryPolicy policy,
                            BiConsumer<Integer, Long> wakeBucket, Clock clock) {
        this.store = store;
        this.journal = journal;
        this.states = states;
        this.policy = policy;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
    }

    public void settle(int bucket, List<Job> delivered, List<SendFailure> failed) {
        long now = clock.millis();
        List<StateChange> changes = new ArrayList<>(delivered.size() + failed.size());
        List<String> gone = new ArrayList<>(delivered.size());
        delivered.forEach(job -> {
            gone.add(job.getId());
            changes.add(StateChange.of(job.getId(), JobStatus.Finish, now));
        });
        List<StateChange> buried = new ArrayList<>();
        List<String> dead = new ArrayList<>();
        List<Job> retries = new ArrayList<>();
        List<Long> retryAt = new ArrayList<>();
        for (SendFailure failure : failed) {
            Job job = failure.job();
            int attempts = job.getAttempts() + 1;
            RetryPolicy.Decision decision = policy.decide(job, attempts, now);
            if (decision.verdict() == RetryPolicy.Verdict.RETRY) {
                job.setAttempts(attempts);
                retries.add(job);
                retryAt.add(decision.retryAt());
                changes.add(StateChange.of(job.getId(), JobStatus.Delay, now));
            } else {
                log.warn("job {} of topic {} is dead ({}, {} attempts): {}", job.getId(), job.getTopic(),
                        decision.verdict(), attempts, failure.reason());
                dead.add(job.getId());
                buried.add(StateChange.of(job.getId(), JobStatus.Dead, now));
            }
        }
        store.forget(bucket, gone);
        if (!dead.isEmpty()) {
            // a journal failure here leaves them in flight: the sweeper brings them back, nothing is dropped unrecorded
            journal.apply(buried);
            store.forget(bucket, dead);
        }
        if (!retries.isEmpty()) {
            store.retry(bucket, retries, retryAt);
        }
        // journaled before the timer is woken, so the log keeps the real order
        states.submitAll(changes);
        if (!retries.isEmpty()) {
            wakeBucket.accept(bucket, retryAt.stream().mapToLong(Long::longValue).min().orElse(now));
        }
    }
}
