package io.mykit.delay.queue.timer;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.EndingsBarrier;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.journal.UnconfirmedGroup;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.loop.ChoreTurn;
import io.mykit.delay.queue.loop.WakeableLoop;
import io.mykit.delay.queue.store.RestoreMarks;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores jobs whose push group's storing row is older than {@code repairAfterMs}, and jobs the journal holds in WaitPut
 * for that long (a respawned dead letter, rows of an older version): pushes whose Redis step failed (Redis down, node
 * crashed between commit and add). Adds are idempotent, so a job Redis does hold is untouched; a job the journal shows
 * ended is not added.
 *
 * <p>It also settles finish marks older than {@code repairAfterMs}: a pull finish answered 200 whose Finish a node
 * never wrote (killed with it queued) is journaled Finish now, at the mark's time, and the mark goes. It looks only
 * after every live node flushed its ends, so a mark whose row still reads pending was lost with its node.
 */
public final class StrandedJobRepairer extends WakeableLoop {
    private static final Logger log = LoggerFactory.getLogger(StrandedJobRepairer.class);
    private static final int PAGE = 500;
    /** Storing rows per page: a row lists a push group (mostly a few jobs; its jobs are read PAGE at a time). */
    private static final int GROUP_PAGE = 100;

    private final Journal journal;
    private final RestoreMarks store;
    private final StateChangeWriter states;
    private final BucketWaker wakeBucket;
    private final long repairAfterMs;
    private final ChoreTurn turn;
    private final EndingsBarrier endings;

    /** Repairs only while the {@code turn} is this node's: one node of a cluster looks, not all of them. */
    public StrandedJobRepairer(
            Journal journal,
            RestoreMarks store,
            StateChangeWriter states,
            BucketWaker wakeBucket,
            Clock clock,
            long repairAfterMs,
            ChoreTurn turn,
            EndingsBarrier endings) {
        super("mykit-stranded-repair", clock);
        this.journal = journal;
        this.store = store;
        this.states = states;
        this.wakeBucket = wakeBucket;
        this.repairAfterMs = repairAfterMs;
        this.turn = turn;
        this.endings = endings;
    }

    @Override
    protected long runOnce() throws InterruptedException {
        long now = clock.millis();
        long next = now + Math.max(1_000, repairAfterMs / 2);
        if (!turn.isMine()) {
            return next;
        }
        // a cheap look first: the restore marks below are worth their round trips only when something looks stranded
        boolean stranded =
                !journal.unconfirmedGroupsBefore(now - repairAfterMs, 1).isEmpty()
                        || !journal.findInStatusBefore(JobStatus.WaitPut, now - repairAfterMs, null, 1)
                                .isEmpty();
        boolean oldFinishMarks = oldFinishMarks(now);
        if (!stranded && !oldFinishMarks) {
            return next;
        }
        // as a restore does: ends from now on leave tombstones, and ends under way reach the journal before it is read
        store.beginRestore();
        try {
            // written changes first, so a job whose "stored" change is still queued is not mistaken for stranded
            if (!endings.await(repairAfterMs)) {
                return now + repairAfterMs / 2;
            }
            if (stranded) {
                repair(now);
            }
            if (oldFinishMarks) {
                settleFinishMarks(now);
            }
        } finally {
            store.endRestore();
        }
        return next;
    }

    /** Whether a finish mark is older than repair-after; a Redis that does not answer has none to settle now. */
    private boolean oldFinishMarks(long now) {
        try {
            return !store.finishMarksBefore(now - repairAfterMs, 1).isEmpty();
        } catch (StoreUnavailableException e) {
            log.debug("finish marks not read: {}", e.getMessage());
            return false;
        }
    }

    /**
     * Journals Finish for marked jobs whose rows still read pending (their node died with the change queued), then
     * drops the marks of those and of the ones the journal already shows ended.
     */
    private void settleFinishMarks(long now) throws InterruptedException {
        Map<String, Long> marks = store.finishMarksBefore(now - repairAfterMs, PAGE);
        if (marks.isEmpty()) {
            return;
        }
        Map<String, JournalEntry> journaled = journal.findAll(marks.keySet());
        List<StateChange> lost = new ArrayList<>();
        marks.forEach((id, at) -> {
            JournalEntry entry = journaled.get(id);
            if (entry != null && !entry.status().isTerminal()) {
                lost.add(StateChange.of(id, JobStatus.Finish, at));
            }
        });
        if (!lost.isEmpty()) {
            states.submitAll(lost);
            if (!states.flush(repairAfterMs)) {
                // the marks stay, so a restore still leaves these jobs alone; the next round looks again
                return;
            }
            log.warn(
                    "journaled Finish for {} pull jobs finished (answered 200) whose Finish a node never wrote",
                    lost.size());
        }
        store.forgetFinishMarks(marks.keySet());
    }

    private void repair(long now) {
        int repaired = repairGroups(now);
        JournalEntry after = null;
        while (true) {
            List<JournalEntry> entries =
                    journal.findInStatusBefore(JobStatus.WaitPut, now - repairAfterMs, after, PAGE);
            if (entries.isEmpty()) {
                break;
            }
            List<Job> page = entries.stream().map(JournalEntry::job).toList();
            List<String> added = store.addUnlessEnded(page);
            page.forEach(job -> {
                states.submit(StateChange.stored(job.getId(), now));
                wakeBucket.wake(store.bucketOf(job.getId()), job.dueTime());
            });
            repaired += added.size();
            after = entries.get(entries.size() - 1);
        }
        if (repaired > 0) {
            log.info("stored {} jobs that were journaled but missing from Redis", repaired);
        }
    }

    /**
     * Stores the jobs of old storing rows that have not ended, then deletes those rows; returns how many Redis lacked.
     */
    private int repairGroups(long now) {
        int repaired = 0;
        while (true) {
            List<UnconfirmedGroup> groups = journal.unconfirmedGroupsBefore(now - repairAfterMs, GROUP_PAGE);
            if (groups.isEmpty()) {
                return repaired;
            }
            List<String> ids =
                    groups.stream().flatMap(group -> group.jobIds().stream()).toList();
            for (int from = 0; from < ids.size(); from += PAGE) {
                List<Job> pending =
                        journal.findAll(ids.subList(from, Math.min(ids.size(), from + PAGE))).values().stream()
                                .filter(entry -> !entry.status().isTerminal())
                                .map(JournalEntry::job)
                                .toList();
                repaired += store.addUnlessEnded(pending).size();
                pending.forEach(job -> wakeBucket.wake(store.bucketOf(job.getId()), job.dueTime()));
            }
            journal.confirmGroups(groups.stream().map(UnconfirmedGroup::key).toList());
        }
    }
}
