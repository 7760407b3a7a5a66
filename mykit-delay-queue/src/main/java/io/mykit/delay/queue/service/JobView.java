package io.mykit.delay.queue.service;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.store.StoredJob;
import java.time.LocalDateTime;

/**
 * A job with its journal status and, when Redis holds it, where it sits now; {@code dueTime} is the time it is due at
 * now (a release or a retry moves it past the one it was pushed with).
 */
public record JobView(Job job, JobStatus status, LocalDateTime updateTime, StoredJob.Stage stage, long dueTime) {

    /** A view whose due time is the one the job was pushed with. */
    public JobView(Job job, JobStatus status, LocalDateTime updateTime, StoredJob.Stage stage) {
        this(job, status, updateTime, stage, job.dueTime());
    }
}
