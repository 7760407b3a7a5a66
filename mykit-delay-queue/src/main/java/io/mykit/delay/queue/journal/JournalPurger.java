package io.mykit.delay.queue.journal;

import io.mykit.delay.queue.loop.ChoreTurn;
import io.mykit.delay.queue.loop.WakeableLoop;
import java.time.Clock;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the journal from growing forever: jobs that ended for good (Finish, Delete) and last changed more than
 * {@code retentionMs} (> 0) ago go with their log rows, in statements of at most {@code batchSize} rows with a pause
 * between them. Pending, in-flight and dead jobs stay whatever their age.
 *
 * <pre>
 *  each batch:  ids = up to N ended jobs older than the cut-off
 *               delete their log rows, N per statement, until none is left   (pause after each)
 *               delete their job rows                                        (pause)
 * </pre>
 *
 * Log rows go first: a crash between the two leaves job rows the next pass finds again, never orphan log rows.
 */
public final class JournalPurger extends WakeableLoop {
    private static final Logger log = LoggerFactory.getLogger(JournalPurger.class);
    public static final String JOB_TABLE = "mykit_delay_queue_job";
    public static final String LOG_TABLE = "mykit_delay_queue_job_log";

    private final Journal journal;
    private final long retentionMs;
    private final int batchSize;
    private final long pauseMs;
    private final long intervalMs;
    private final ChoreTurn turn;
    private final PurgedRows purged;

    /**
     * Purges only while the {@code turn} is this node's (one node of a cluster runs the chores); {@code purged} is told
     * of each statement's deleted rows by table name.
     */
    public JournalPurger(
            Journal journal,
            Clock clock,
            long retentionMs,
            int batchSize,
            long pauseMs,
            long intervalMs,
            ChoreTurn turn,
            PurgedRows purged) {
        super("mykit-journal-purge", clock);
        this.journal = journal;
        this.retentionMs = retentionMs;
        this.batchSize = batchSize;
        this.pauseMs = pauseMs;
        this.intervalMs = intervalMs;
        this.turn = turn;
        this.purged = purged;
    }

    @Override
    protected long runOnce() throws InterruptedException {
        purgeOnce(this::isRunning);
        return clock.millis() + intervalMs;
    }

    /**
     * One purge of everything past the retention, batch by batch, while {@code goOn} holds and the turn is this node's;
     * returns the job rows deleted.
     */
    public long purgeOnce(BooleanSupplier goOn) throws InterruptedException {
        long jobs = 0;
        long logs = 0;
        long cutOff = clock.millis() - retentionMs;
        // a retention of 0 or less keeps everything (the loop is then never started; this guards a direct call)
        while (retentionMs > 0 && goOn.getAsBoolean() && turn.isMine()) {
            List<String> ids = journal.endedBefore(cutOff, batchSize);
            if (ids.isEmpty()) {
                break;
            }
            int deleted;
            do {
                deleted = journal.purgeLogs(ids, cutOff, batchSize);
                logs += deleted;
                purged.purged(LOG_TABLE, deleted);
                pause();
            } while (deleted == batchSize && goOn.getAsBoolean());
            int gone = journal.purgeJobs(ids, cutOff);
            jobs += gone;
            purged.purged(JOB_TABLE, gone);
            if (ids.size() < batchSize) {
                break;
            }
            pause();
        }
        if (jobs > 0 || logs > 0) {
            log.info(
                    "journal retention: purged {} ended jobs and {} log rows last changed before {}",
                    jobs,
                    logs,
                    java.time.Instant.ofEpochMilli(cutOff));
        }
        return jobs;
    }

    private void pause() throws InterruptedException {
        progressed();
        if (pauseMs > 0) {
            Thread.sleep(pauseMs);
        }
    }
}
