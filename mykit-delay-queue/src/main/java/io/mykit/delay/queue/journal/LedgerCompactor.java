package io.mykit.delay.queue.journal;

import io.mykit.delay.queue.loop.WakeableLoop;
import java.time.Clock;
import java.util.function.LongSupplier;

/**
 * Compacts the delivery ledger on every node: folds its rows older than {@code foldAfterMs} into the job and log rows,
 * about {@code foldSize} changes per transaction. While this node keeps submitting state changes (a burst), it rests
 * twice as long as a fold took, so the fold takes at most a third of the database's time and the deliveries keep the
 * rest; once they stop it folds the backlog at full speed. Nodes folding the same rows exclude each other
 * ({@link Journal#foldLedger}).
 */
public final class LedgerCompactor extends WakeableLoop {
    static final long MIN_PAUSE_MS = 50;
    private static final long IDLE_MS = 200;

    private final Journal journal;
    private final long foldAfterMs;
    private final int foldSize;
    private final LongSupplier submitted;
    private long submittedBefore = -1;

    /** {@code submitted}: how many state changes this node has submitted so far (it tells a burst from quiet). */
    public LedgerCompactor(Journal journal, Clock clock, long foldAfterMs, int foldSize, LongSupplier submitted) {
        super("mykit-journal-fold", clock);
        this.journal = journal;
        this.foldAfterMs = foldAfterMs;
        this.foldSize = foldSize;
        this.submitted = submitted;
    }

    @Override
    protected long runOnce() {
        long started = clock.millis();
        long changes = submitted.getAsLong();
        boolean busy = changes != submittedBefore;
        submittedBefore = changes;
        int folded = journal.foldLedger(started - foldAfterMs, foldSize);
        long now = clock.millis();
        if (folded == 0) {
            return now + IDLE_MS;
        }
        return now + (busy ? Math.max(MIN_PAUSE_MS, 2 * (now - started)) : 0);
    }
}
