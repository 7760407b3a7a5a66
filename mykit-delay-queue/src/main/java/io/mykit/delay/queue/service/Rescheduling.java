package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.store.DelayStore;
import java.time.Clock;

/** Replaces a waiting job's delay and body: Redis first, atomically, then the journal. */
public class Rescheduling {
    private final JobValidator validator;
    private final DelayStore store;
    private final Journal journal;
    private final BucketWaker wakeBucket;
    private final Clock clock;

    public Rescheduling(
            JobValidator validator, DelayStore store, Journal journal, BucketWaker wakeBucket, Clock clock) {
        this.validator = validator;
        this.store = store;
        this.journal = journal;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
    }

    /**
     * Replaces a pending job's delay (counted from now, as a new push of the id was in the original) and, when given,
     * its body, atomically in Redis and then in the journal. Only while it waits in its bucket: a job already due or
     * handed over is refused (409), so no delivery ever carries a half-replaced job. The journal goes second: a crash
     * in between leaves the old schedule there and no answer to the client, who retries.
     */
    public Job reschedule(String jobId, Long delayMs, String body) {
        JobValidator.requireId("jobId", jobId);
        long delay = JobValidator.requireDelay(delayMs);
        JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
        if (entry.status().isTerminal()) {
            throw new JobStateConflictException(jobId, "job " + jobId + " already ended: " + entry.status());
        }
        long now = clock.millis();
        Job old = entry.job();
        Job job = new Job(
                jobId,
                old.getTopic(),
                old.getSubtopic(),
                old.getBizKey(),
                delay,
                old.getPriority(),
                old.getTtl(),
                old.getTries(),
                body == null ? old.getBody() : body,
                now);
        job.setAttempts(old.getAttempts());
        validator.validate(job, now);
        switch (store.reschedule(job)) {
            case NOT_WAITING ->
                throw new JobStateConflictException(
                        jobId, "job " + jobId + " is already due or handed over: it can no longer be rescheduled");
            case NOT_IN_REDIS ->
                throw new JobStateConflictException(
                        jobId,
                        "job " + jobId + " is not in Redis (" + entry.status()
                                + "): being stored, or waiting for a restore; try again in a moment");
            case RESCHEDULED -> {}
        }
        if (!journal.reschedule(job, Thread.currentThread().getName(), now)) {
            throw new JobStateConflictException(jobId, "job " + jobId + " ended while it was being rescheduled");
        }
        wakeBucket.wake(store.bucketOf(jobId), job.dueTime());
        return job;
    }
}
