package io.mykit.delay.client;

import java.time.Instant;

/**
 * A due job a {@link DelayConsumer} received, as {@code GET /get/{topic}} shows it.
 *
 * @param id the job's id; it travels with every delivery, so a handler can drop a duplicate by it
 * @param attempts deliveries or reservations before this one
 * @param tries deliveries or reservations before the job is dead (0 = the gateway's default)
 * @param dueTime when it fell due: createTime + delay + priority
 */
public record ReceivedJob(
        String id,
        String topic,
        String subtopic,
        String bizKey,
        String body,
        int attempts,
        int tries,
        Instant createTime,
        Instant dueTime) {}
