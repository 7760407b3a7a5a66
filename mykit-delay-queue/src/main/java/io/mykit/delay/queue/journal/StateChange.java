package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;

/**
 * One state change to journal. {@code onlyFromWaitPut} marks the push road's "stored in Redis" change, which
 * must never overwrite a later state that a fast timer wrote first.
 */
public record StateChange(String jobId, JobStatus status, boolean onlyFromWaitPut, String thread, long at) {

    public static StateChange of(String jobId, JobStatus status, long at) {
        return new StateChange(jobId, status, false, Thread.currentThread().getName(), at);
    }

    public static StateChange stored(String jobId, long at) {
        return new StateChange(jobId, JobStatus.Delay, true, Thread.currentThread().getName(), at);
    }
}
