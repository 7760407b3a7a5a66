package io.mykit.delay.client;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects finishes so that many go in one frame: a batch leaves when it holds {@code maxItems}, or when the timer set
 * at its first item fires, whichever comes first. While {@link #hold() held} (a consumer shutting down), items wait for
 * {@link #takeAll()}: a finish frees credit, and the gateway would fill it with jobs that no handler will start.
 * Thread-safe.
 */
final class FinishBatcher<T> {
    /** What an {@link #add} did: a full batch to send now (else empty), and whether a timer should be set. */
    record Added<T>(List<T> full, boolean started) {}

    private final int maxItems;
    private List<T> pending = new ArrayList<>();
    private long firstAddedNanos;
    private boolean holding;

    FinishBatcher(int maxItems) {
        if (maxItems < 1) {
            throw new IllegalArgumentException("maxItems must be >= 1, was " + maxItems);
        }
        this.maxItems = maxItems;
    }

    /** Adds one item; when {@code started}, the caller sets the timer that will {@link #drain()} this batch. */
    synchronized Added<T> add(T item) {
        boolean first = pending.isEmpty();
        if (first) {
            firstAddedNanos = System.nanoTime();
        }
        pending.add(item);
        if (holding) {
            return new Added<>(List.of(), false);
        }
        if (pending.size() >= maxItems) {
            return new Added<>(take(), first);
        }
        return new Added<>(List.of(), first);
    }

    /** Whatever waits (possibly nothing), taken out; nothing while held. */
    synchronized List<T> drain() {
        return holding ? List.of() : take();
    }

    /** From now on, items wait for {@link #takeAll()} (or {@link #drainOlderThan}). */
    synchronized void hold() {
        holding = true;
    }

    /** Whatever waits, taken out, held or not. */
    synchronized List<T> takeAll() {
        return take();
    }

    /** Whatever waits, when the first of it was added at least {@code ageNanos} ago, held or not. */
    synchronized List<T> drainOlderThan(long ageNanos) {
        if (pending.isEmpty() || System.nanoTime() - firstAddedNanos < ageNanos) {
            return List.of();
        }
        return take();
    }

    private List<T> take() {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<T> batch = pending;
        pending = new ArrayList<>();
        return batch;
    }
}
