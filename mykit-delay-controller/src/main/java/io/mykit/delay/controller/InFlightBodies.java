package io.mykit.delay.controller;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What all requests together may hold of request bodies: bytes (reserved before a body is read, so a request over the
 * budget is refused without reading it) and threads blocked reading a body (so slow senders cannot take them all), each
 * read bounded in time.
 */
public final class InFlightBodies {
    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();
    private final Semaphore readers;
    private final long readTimeoutNanos;

    public InFlightBodies(long capacityBytes, int readers, Duration readTimeout) {
        this.capacity = capacityBytes;
        this.readers = new Semaphore(readers);
        this.readTimeoutNanos = readTimeout.toNanos();
    }

    public long capacity() {
        return capacity;
    }

    /** Takes {@code bytes} of the budget, or nothing when they are not free. */
    boolean reserve(long bytes) {
        long now;
        do {
            now = reserved.get();
            if (now + bytes > capacity) {
                return false;
            }
        } while (!reserved.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    /** Bytes reserved now. */
    public long reserved() {
        return reserved.get();
    }

    boolean startReading() {
        return readers.tryAcquire();
    }

    void stopReading() {
        readers.release();
    }

    long readTimeoutNanos() {
        return readTimeoutNanos;
    }
}
