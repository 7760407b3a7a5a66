package io.mykit.delay.controller;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.service.JobView;
import io.mykit.delay.queue.store.StoredJob;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.LocalDateTime;

/**
 * A job as {@code GET /jobs/{id}} and {@code GET /jobs?bizKey=} show it: its fields, journal status, place in Redis.
 */
@Schema(description = "A job with its journal status and, while Redis holds it, where it sits.")
public record JobDetails(
        @Schema(example = "order-42-close") String id,
        @Schema(example = "order-close") String topic,
        @Schema(example = "paid") String subtopic,
        @Schema(example = "order-42") String bizKey,
        @Schema(example = "1800000") long delay,
        @Schema(example = "0") int priority,
        @Schema(example = "0") long ttl,
        @Schema(example = "16") int tries,

        @Schema(
                description = "Tries used so far: reservations by pullers, failed sends to a broker; a dead job's"
                        + " are those it died with.",
                example = "0")
        int attempts,

        @Schema(example = "{\"orderId\":42}") String body,
        @Schema(example = "1767225600000") long createTime,

        @Schema(
                description = "When the job is due, epoch milliseconds: createTime + delay + priority, or the later"
                        + " time a release or a retry set while it waits for it.",
                example = "1767227400000")
        long dueTime,

        @Schema(description = "Journal status.", example = "Delay")
        JobStatus status,

        @Schema(description = "Journal status code (the original mykit-delay's 0..6, then 7 = Dead).", example = "1")
        int statusCode,

        @Schema(description = "When the journal status last changed.")
        LocalDateTime updateTime,

        @Schema(
                description = "Where Redis holds the job; null when it does not (ended, or not stored yet).",
                example = "DELAYED",
                nullable = true)
        StoredJob.Stage stage) {

    static JobDetails of(JobView view) {
        Job job = view.job();
        return new JobDetails(
                job.getId(),
                job.getTopic(),
                job.getSubtopic(),
                job.getBizKey(),
                job.getDelay(),
                job.getPriority(),
                job.getTtl(),
                job.getTries(),
                job.getAttempts(),
                job.getBody(),
                job.getCreateTime(),
                view.dueTime(),
                view.status(),
                view.status().code(),
                view.updateTime(),
                view.stage());
    }
}
