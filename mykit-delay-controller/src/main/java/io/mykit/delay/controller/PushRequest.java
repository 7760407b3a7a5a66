package io.mykit.delay.controller;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /push} (and each element of {@code POST /push/batch}) as the API document shows it. The
 * handler reads it as a {@link io.mykit.delay.common.model.Job}; OpenApiTest checks that both name the same fields.
 */
@Schema(name = "PushRequest", description = "A job to deliver after its delay. Only topic is required.")
public record PushRequest(
        @Schema(
                description = "Job id; generated when absent. A repeated id is stored once.",
                example = "order-42-close",
                maxLength = 128,
                pattern = "[A-Za-z0-9_.:\\-]{1,128}")
        String id,

        @Schema(
                description = "Where the job goes when due: a pull topic, or a broker destination through the routes.",
                example = "order-close",
                requiredMode = Schema.RequiredMode.REQUIRED,
                maxLength = 128,
                pattern = "[A-Za-z0-9_.\\-]{1,128}")
        String topic,

        @Schema(description = "RocketMQ tag (or passed along to the consumer).", example = "paid", maxLength = 250)
        String subtopic,

        @Schema(
                description = "The caller's business key: RocketMQ keys; jobs can be looked up and cancelled by it.",
                example = "order-42",
                maxLength = 128)
        String bizKey,

        @Schema(
                description = "Milliseconds after createTime when the job falls due.",
                example = "1800000",
                minimum = "0")
        long delay,

        @Schema(
                description = "Extra milliseconds added to the due time (0..86400000).",
                example = "0",
                minimum = "0",
                maximum = "86400000")
        int priority,

        @Schema(
                description = "Milliseconds after the due time the job may still be delivered; 0 = no limit.",
                example = "0",
                minimum = "0")
        long ttl,

        @Schema(
                description = "Deliveries (or pull reservations) before the job is dead; 0 = the gateway's default.",
                example = "0",
                minimum = "0",
                maximum = "1000")
        int tries,

        @Schema(description = "The message, handed to the target as it is.", example = "{\"orderId\":42}")
        String body,

        @Schema(
                description = "Milliseconds since the epoch the delay counts from, from 2000-01-01T00:00:00Z"
                        + " (946684800000) to now + the max delay; 0 = now. Seconds are refused.",
                example = "0",
                minimum = "0")
        long createTime) {}
