package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import java.time.LocalDateTime;

/** A job as the journal knows it. */
public record JournalEntry(Job job, JobStatus status, LocalDateTime updateTime) {}
