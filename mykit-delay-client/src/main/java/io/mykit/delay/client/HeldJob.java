package io.mykit.delay.client;

import java.util.concurrent.atomic.AtomicBoolean;

/** A job a stream wrote to this consumer, from its arrival until it is acknowledged. */
final class HeldJob {
    private final ReceivedJob job;
    private final StreamSession session;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean acknowledged = new AtomicBoolean();
    private volatile long lastReservedNanos;
    private volatile long startedNanos;
    private volatile boolean manual;

    HeldJob(ReceivedJob job, StreamSession session, long nowNanos) {
        this.job = job;
        this.session = session;
        this.lastReservedNanos = nowNanos;
    }

    ReceivedJob job() {
        return job;
    }

    String id() {
        return job.id();
    }

    StreamSession session() {
        return session;
    }

    /** Marks the handler started; false when it was started before. */
    boolean start(long nowNanos, boolean manualHandler) {
        if (!started.compareAndSet(false, true)) {
            return false;
        }
        startedNanos = nowNanos;
        manual = manualHandler;
        return true;
    }

    boolean started() {
        return started.get();
    }

    long startedNanos() {
        return startedNanos;
    }

    /** Marks the job acknowledged (finished, released or buried); false when it was before. */
    boolean acknowledge() {
        return acknowledged.compareAndSet(false, true);
    }

    boolean acknowledged() {
        return acknowledged.get();
    }

    /** Whether the consumer keeps the job reserved: until acknowledged, unless a manual handler has it. */
    boolean touchedByConsumer() {
        return !acknowledged.get() && !(started.get() && manual);
    }

    long lastReservedNanos() {
        return lastReservedNanos;
    }

    void reserved(long nowNanos) {
        lastReservedNanos = nowNanos;
    }
}
