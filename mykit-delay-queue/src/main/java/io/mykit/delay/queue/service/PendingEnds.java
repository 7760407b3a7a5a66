package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.queue.journal.StateChangeWriter;

/** Lets a cancel or finish of a job Redis lacks judge it by the journal only once ends under way are written. */
final class PendingEnds {
    /** How long a finish or cancel waits for queued journal changes before it judges by the journal. */
    private static final long FLUSH_WAIT_MS = 2_000;

    private PendingEnds() {}

    /**
     * Waits (bounded) until every end under way on another thread (its Redis step taken, its change maybe not yet
     * submitted) is submitted, and the journal holds every change submitted so far: it is judged by its rows next.
     * Never call it inside an end of this thread's own.
     */
    static void awaitWritten(StateChangeWriter states) {
        try {
            if (!states.flushEndings(FLUSH_WAIT_MS)) {
                throw new StoreUnavailableException(
                        "journal", "queued state changes not written within " + FLUSH_WAIT_MS + " ms", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("gateway", "interrupted", e);
        }
    }
}
