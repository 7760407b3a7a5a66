package io.mykit.delay.queue.recovery;

import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.loop.ChoreTurn;
import io.mykit.delay.queue.loop.WakeableLoop;
import io.mykit.delay.queue.store.StoreAdmin;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices that Redis lost this gateway's data (restarted without persistence, flushed, failed over to an empty
 * replica): the epoch key written after every restore is gone. Then it restores everything pending from the journal,
 * due or not, and writes the epoch again. On a first start with an empty journal it just writes the epoch.
 */
public final class RedisLossWatch extends WakeableLoop {
    private static final Logger log = LoggerFactory.getLogger(RedisLossWatch.class);

    private final StoreAdmin store;
    private final Journal journal;
    private final RecoveryService recovery;
    private final long intervalMs;
    private final ChoreTurn turn;
    private final AtomicLong restores = new AtomicLong();

    /** Watches only while the {@code turn} is this node's: one node of a cluster restores, not every node at once. */
    public RedisLossWatch(
            StoreAdmin store, Journal journal, RecoveryService recovery, Clock clock, long intervalMs, ChoreTurn turn) {
        super("mykit-redis-loss-watch", clock);
        this.store = store;
        this.journal = journal;
        this.recovery = recovery;
        this.intervalMs = intervalMs;
        this.turn = turn;
    }

    /** Automatic restores this node ran. */
    public long restores() {
        return restores.get();
    }

    /**
     * On a first start (Redis holds no epoch, the journal no pending job) writes the epoch before the gateway takes a
     * push; true when it did. Left to the first pass, which runs on its own thread once delivery starts (after the port
     * opened, or with the start-up warm-up's pushes), the first jobs pushed would look like data Redis had lost and set
     * off a restore of everything pending while they were being pushed.
     */
    public boolean markFirstStart() {
        return !store.hasEpoch() && newEpochIfNothingPending();
    }

    @Override
    protected boolean progressing() {
        return recovery.isRunning();
    }

    @Override
    protected long runOnce() {
        if (turn.isMine() && !store.hasEpoch() && !newEpochIfNothingPending()) {
            log.warn(
                    "Redis lost this gateway's data (epoch key missing): restoring every pending job from the journal");
            restores.incrementAndGet();
            recovery.restore(true);
            store.writeEpoch();
        }
        return clock.millis() + intervalMs;
    }

    /** With no epoch in Redis: writes one when the journal holds no pending job (nothing to restore); true if so. */
    private boolean newEpochIfNothingPending() {
        if (!journal.findPendingAfter("", 1).isEmpty()) {
            return false;
        }
        log.info("Redis holds no epoch key and the journal no pending job: starting a new epoch");
        store.writeEpoch();
        return true;
    }
}
