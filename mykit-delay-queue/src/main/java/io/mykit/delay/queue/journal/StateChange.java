package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One state change to journal. {@code onlyFromWaitPut} marks the push road's "stored in Redis" change, which
 * must never overwrite a later state that a fast timer wrote first.
 */
public record StateChange(String jobId, JobStatus status, boolean onlyFromWaitPut, String thread, long at) {

    public static StateChange of(String jobId, JobStatus status, long at) {
        return new StateChange(jobId, status, false, Thread.currentThread().getName(), at);
    }

    public static StateChange stored(String jobId, long at) {
        return new StateChange(jobId, JobStatus.Delay, true, Thread.currentThread().getName(), at);
    }

    /**
     * The change that decides each job's row, in first-seen order: the last unguarded change wins; a guarded
     * "stored" change counts only when no other change of that job is in the list.
     */
    public static Collection<StateChange> finalPerJob(List<StateChange> changes) {
        Map<String, StateChange> last = new LinkedHashMap<>();
        for (StateChange change : changes) {
            StateChange previous = last.get(change.jobId());
            if (previous == null || !change.onlyFromWaitPut() || previous.onlyFromWaitPut()) {
                last.put(change.jobId(), change);
            }
        }
        return last.values();
    }
}
