package io.mykit.delay.client;

import java.time.Instant;

/**
 * A job as {@link DelayClient#lookup} shows it.
 *
 * @param status its journal status: {@code WaitPut}, {@code Delay}, {@code Ready}, {@code Finish}, {@code Delete},
 *     {@code ConsumerFailRestore}, {@code Dead}, ...
 * @param stage where Redis holds it ({@code DELAYED}, {@code READY}, {@code IN_FLIGHT}), or null when it does not
 * @param attempts deliveries or reservations so far
 */
public record JobView(
        String id,
        String topic,
        String subtopic,
        String bizKey,
        String body,
        int tries,
        int attempts,
        Instant createTime,
        Instant dueTime,
        String status,
        String stage) {}
