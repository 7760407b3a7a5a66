package io.mykit.delay.client;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects finishes so that many go in one frame: a batch leaves when it holds {@code maxItems}, or when the timer set
 * at its first item fires, whichever comes first. Thread-safe.
 */
final class FinishBatcher<T> {
    /** What an {@link #add} did: a full batch to send now (else empty), and whether a new batch was begun. */
    record Added<T>(List<T> full, boolean started) {}

    private final int maxItems;
    private List<T> pending = new ArrayList<>();

    FinishBatcher(int maxItems) {
        if (maxItems < 1) {
            throw new IllegalArgumentException("maxItems must be >= 1, was " + maxItems);
        }
        this.maxItems = maxItems;
    }

    /** Adds one item; when {@code started}, the caller sets the timer that will {@link #drain()} this batch. */
    synchronized Added<T> add(T item) {
        boolean started = pending.isEmpty();
        pending.add(item);
        if (pending.size() >= maxItems) {
            return new Added<>(drain(), started);
        }
        return new Added<>(List.of(), started);
    }

    /** Whatever is waiting (possibly nothing), taken out. */
    synchronized List<T> drain() {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<T> batch = pending;
        pending = new ArrayList<>();
        return batch;
    }
}
