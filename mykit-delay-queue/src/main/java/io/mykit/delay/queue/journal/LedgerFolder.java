package io.mykit.delay.queue.journal;

import io.mykit.delay.queue.timer.WakeableLoop;

import java.time.Clock;

/**
 * Folds the delivery ledger into the job and log rows on every node: rows older than {@code foldAfterMs}, about
 * {@code foldSize} changes per transaction. After a fold it rests twice as long as the fold took (at least
 * {@link #MIN_PAUSE_MS}), so that in a burst the fold takes at most a third of the database's time and the deliveries
 * keep the rest; the backlog is folded once the burst is over. Nodes folding the same rows exclude each other
 * ({@link Journal#foldLedger}).
 */
public final class LedgerFolder extends WakeableLoop {
    static final long MIN_PAUSE_MS = 50;
    private static final long IDLE_MS = 200;

    private final Journal journal;
    private final long foldAfterMs;
    private final int foldSize;

    public LedgerFolder(Journal journal, Clock clock, long foldAfterMs, int foldSize) {
        super("mykit-journal-fold", clock);
        this.journal = journal;
        this.foldAfterMs = foldAfterMs;
        this.foldSize = foldSize;
    }

    @Override
    protected long runOnce() {
        long started = clock.millis();
        int folded = journal.foldLedger(started - foldAfterMs, foldSize);
        long now = clock.millis();
        return folded == 0 ? now + IDLE_MS : now + Math.max(MIN_PAUSE_MS, 2 * (now - started));
    }
}
