package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.metrics.QueueMetrics;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The ends (Finish, Delete, Dead) one journal write leaves out because their job had ended already: those an earlier
 * end of the same batch outranks, and those whose guarded UPDATE finds the row ended. Reported once the write
 * committed.
 */
final class KeptEnds {
    private final Map<JobStatus, Integer> outranked = new EnumMap<>(JobStatus.class);
    private final List<GuardedUpdate> updates = new ArrayList<>();

    /** An ended-state UPDATE: the statement's place in its write, its status, and how many rows it names. */
    private record GuardedUpdate(int statement, JobStatus status, int rows) {}

    /** {@code changes} of one batch decided by {@code finals} ({@link StateChange#finalPerJob}). */
    void outrankedIn(List<StateChange> changes, Iterable<StateChange> finals) {
        for (StateChange change : changes) {
            if (change.status().isTerminal() && !change.groupStored()) {
                outranked.merge(change.status(), 1, Integer::sum);
            }
        }
        for (StateChange change : finals) {
            if (change.status().isTerminal()) {
                outranked.merge(change.status(), -1, Integer::sum);
            }
        }
    }

    /** The write's statement at {@code statement} sets {@code rows} rows to the ended {@code status} unless ended. */
    void guarded(int statement, JobStatus status, int rows) {
        updates.add(new GuardedUpdate(statement, status, rows));
    }

    /** Reports what the write left out, given each statement's count of rows changed (negative: unknown). */
    void report(int[] rowsChanged, QueueMetrics metrics) {
        Map<JobStatus, Integer> kept = new EnumMap<>(outranked);
        for (GuardedUpdate update : updates) {
            int changed = update.statement() < rowsChanged.length ? rowsChanged[update.statement()] : -1;
            if (changed >= 0 && changed < update.rows()) {
                kept.merge(update.status(), update.rows() - changed, Integer::sum);
            }
        }
        kept.forEach((status, jobs) -> {
            if (jobs > 0) {
                metrics.endsKept(status, jobs);
            }
        });
    }
}
