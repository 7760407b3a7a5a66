package io.mykit.delay.controller;

import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendResult;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/**
 * The frames on their way to one stream's consumer: sent one at a time without blocking the caller (the container's
 * async send), the rest queued up to {@code maxBytes}. A poll worker writing a frame never waits for a slow reader; a
 * reader that lets the queue grow past its bound, or a send stay unfinished past the send timeout, is a slow consumer.
 */
final class StreamOutbox {
    private final RemoteEndpoint.Async remote;
    private final long maxBytes;
    private final LongSupplier clock;
    private final Deque<String> queued = new ArrayDeque<>();
    private long queuedBytes;
    /** When the send under way started; -1 when none is. */
    private long sendingSince = -1;

    private boolean broken;
    private boolean overflowed;

    StreamOutbox(RemoteEndpoint.Async remote, long maxBytes, LongSupplier clock) {
        this.remote = remote;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    /** Queues a frame; false when it cannot go (the queue is full, or a send failed): the stream must end. */
    boolean send(String frame) {
        synchronized (this) {
            if (broken || overflowed) {
                return false;
            }
            if (sendingSince >= 0) {
                // at most three bytes per char once encoded
                long bytes = (long) frame.length() * 3;
                if (queuedBytes + bytes > maxBytes) {
                    overflowed = true;
                    queued.clear();
                    queuedBytes = 0;
                    return false;
                }
                queued.addLast(frame);
                queuedBytes += bytes;
                return true;
            }
            sendingSince = clock.getAsLong();
        }
        start(frame);
        return true;
    }

    private void start(String frame) {
        try {
            remote.sendText(frame, this::sent);
        } catch (RuntimeException e) {
            sent(new SendResult(e));
        }
    }

    private void sent(SendResult result) {
        String next;
        synchronized (this) {
            if (!result.isOK()) {
                broken = true;
                queued.clear();
                queuedBytes = 0;
                sendingSince = -1;
                return;
            }
            next = queued.pollFirst();
            if (next == null) {
                sendingSince = -1;
                return;
            }
            queuedBytes -= (long) next.length() * 3;
            sendingSince = clock.getAsLong();
        }
        start(next);
    }

    /** How long the send under way has been waiting for the consumer to take it; 0 when none is. */
    synchronized long blockedMs() {
        return sendingSince < 0 ? 0 : clock.getAsLong() - sendingSince;
    }

    /** Whether frames were refused because the consumer does not read them fast enough. */
    synchronized boolean overflowed() {
        return overflowed;
    }
}
