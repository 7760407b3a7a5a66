package io.mykit.delay.queue.service;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.store.StoredJob;
import java.time.LocalDateTime;

/** A job with its journal status and, when Redis holds it, where it sits now. */
public record JobView(Job job, JobStatus status, LocalDateTime updateTime, StoredJob.Stage stage) {}
