package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Writes and reads of single jobs as requests make them: push, respawn, reschedule, cancel, lookup. */
public interface JobWrites extends BucketPlacement {

    /** Adds jobs unless Redis holds them (waiting, in flight or ready); returns the ids added. One round trip. */
    List<String> add(Collection<Job> jobs);

    /** Puts jobs due at their due time with fresh records, whatever Redis held of them; returns how many. */
    int respawn(Collection<Job> jobs);

    /** Outcome of {@link #reschedule}. */
    enum RescheduleResult {
        RESCHEDULED,
        NOT_IN_REDIS,
        NOT_WAITING
    }

    /** Replaces a job's record and due time while it waits in its bucket (same id, same topic). */
    RescheduleResult reschedule(Job job);

    /** Cancels a job still waiting (in its bucket or a ready list); refuses one in flight (handed over or reserved). */
    Delivery.RemoveResult delete(String jobId);

    /** Where a job is, if Redis holds it. */
    Optional<StoredJob> peek(String jobId);
}
