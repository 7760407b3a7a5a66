package io.mykit.delay.queue.journal;

import java.time.LocalDateTime;

/** A row of {@code mykit_delay_queue_job_log}: one state change of one job. */
public record JobLogRow(String id, int status, String thread, LocalDateTime updateTime, String host) {}
