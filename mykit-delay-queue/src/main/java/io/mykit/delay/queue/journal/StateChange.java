package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One state change to journal. {@code onlyFromWaitPut} marks the "stored in Redis" change of a WaitPut row (a respawned
 * dead letter, a repaired job), which must never overwrite a later state that a fast timer wrote first.
 * {@code groupStored} marks no job change at all: Redis holds a push group, so its row in the storing table goes
 * ({@code jobId} is then the group's key; no job row and no log row is written for it).
 */
public record StateChange(
        String jobId, JobStatus status, boolean onlyFromWaitPut, String thread, long at, boolean groupStored) {

    public StateChange(String jobId, JobStatus status, boolean onlyFromWaitPut, String thread, long at) {
        this(jobId, status, onlyFromWaitPut, thread, at, false);
    }

    public static StateChange of(String jobId, JobStatus status, long at) {
        return new StateChange(jobId, status, false, Thread.currentThread().getName(), at);
    }

    /** Redis holds every job of the push group {@code groupKey}: its storing row can go. */
    public static StateChange groupStored(String groupKey, long at) {
        return new StateChange(
                groupKey, JobStatus.Delay, false, Thread.currentThread().getName(), at, true);
    }

    public static StateChange stored(String jobId, long at) {
        return new StateChange(
                jobId, JobStatus.Delay, true, Thread.currentThread().getName(), at);
    }

    /**
     * The change that decides each job's row, in first-seen order: the last unguarded change wins, except that a job's
     * first ended state (Finish, Delete, Dead) is never replaced by a later change, ended or not (a Ready queued after
     * the puller's Finish, a broker's Finish after a burial's Dead), as the UPDATE's guard does across batches; a
     * guarded "stored" change counts only when no other change of that job is in the list.
     */
    public static Collection<StateChange> finalPerJob(List<StateChange> changes) {
        Map<String, StateChange> last = new LinkedHashMap<>();
        for (StateChange change : changes) {
            StateChange previous = last.get(change.jobId());
            if (previous == null || replaces(change, previous)) {
                last.put(change.jobId(), change);
            }
        }
        return last.values();
    }

    /** The jobs these changes finish (pull finishes leave a finish mark in Redis until their Finish is written). */
    public static List<String> finishedIds(List<StateChange> changes) {
        List<String> ids = new ArrayList<>();
        for (StateChange change : changes) {
            if (change.status() == JobStatus.Finish && !change.groupStored()) {
                ids.add(change.jobId());
            }
        }
        return ids;
    }

    private static boolean replaces(StateChange later, StateChange earlier) {
        if (earlier.status().isTerminal()) {
            return false;
        }
        return !later.onlyFromWaitPut() || earlier.onlyFromWaitPut();
    }
}
