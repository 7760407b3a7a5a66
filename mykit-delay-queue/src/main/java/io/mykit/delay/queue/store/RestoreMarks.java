package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What keeps a restore (or the stranded-job repair) from bringing back a job that ended: the restore marker, the
 * tombstones ends leave while it is set, the finish marks of pull finishes not yet journaled, and the add that obeys
 * them.
 */
public interface RestoreMarks extends BucketPlacement {

    /**
     * A restore begins: from now until {@link #endRestore}, every job that ends leaves a tombstone which
     * {@link #addUnlessEnded} respects. The mark expires by itself if the restoring node dies; {@link #keepRestoring}
     * renews it.
     */
    void beginRestore();

    void keepRestoring();

    void endRestore();

    /**
     * {@link JobWrites#add} for a restore: also skips jobs that ended since the restore began ({@link #beginRestore})
     * and jobs with a finish mark.
     */
    List<String> addUnlessEnded(Collection<Job> jobs);

    /** Leaves a tombstone for a job that ended without leaving Redis here, if a restore is running. */
    void markEnded(String jobId);

    /**
     * Drops the finish marks of these jobs: their Finish is journaled now. A pull finish leaves a mark in the same step
     * that removes the job, because it is answered before its Finish is journaled; while the mark is there
     * {@link #addUnlessEnded} (restores, the stranded-job repair) does not bring the job back.
     */
    void forgetFinishMarks(Collection<String> jobIds);

    /** Leaves a finish mark for a job finished without leaving Redis here (Redis had lost it), dated {@code at}. */
    void markFinished(String jobId, long at);

    /** Up to {@code limitPerBucket} marks per bucket dated before {@code before} (Redis clock): id to finish time. */
    Map<String, Long> finishMarksBefore(long before, int limitPerBucket);
}
