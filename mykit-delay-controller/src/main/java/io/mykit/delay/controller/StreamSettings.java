package io.mykit.delay.controller;

/**
 * The limits and timings of {@code GET /stream} ({@code mykit.delay.stream.*}); {@code maxIds}: most ids one frame may
 * name (limits.max-batch-size).
 */
public record StreamSettings(
        int maxStreams,
        int maxTopics,
        int maxCredit,
        long heartbeatMs,
        long idleTimeoutMs,
        long sendTimeoutMs,
        int maxSendBufferBytes,
        int maxFrameBytes,
        int maxIds) {
    /** The credit of a stream that asks for none: 64, or max-credit when lower. */
    public int defaultCredit() {
        return Math.min(64, maxCredit);
    }

    /** How often each stream checks its heartbeat, idle and send timers, and drops held jobs past their ttr. */
    public long tickMs() {
        long shortest = Math.min(heartbeatMs, Math.min(idleTimeoutMs, sendTimeoutMs));
        return Math.max(20, Math.min(1_000, shortest / 4));
    }
}
