package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The durable record of every accepted job and each of its state changes: the source of truth Redis is rebuilt from.
 * Failures to reach the database are {@link io.mykit.delay.common.error.StoreUnavailableException}.
 */
public interface Journal {

    /**
     * Which of these ids are journaled already; waits for a transaction still inserting one of them, so an id another
     * push has just sent is seen once that push commits.
     */
    Set<String> existingIds(Collection<String> ids);

    /**
     * In one transaction: inserts the jobs (a repeated id is ignored) with their WaitPut log rows, and one storing row
     * listing them; returns that row's key (null for no jobs). Until {@link #confirmGroups} (or a
     * {@link StateChange#groupStored} change) removes that row, the jobs count as WaitPut: left to their push.
     */
    String insertWaitPut(List<Job> jobs, String thread, long at);

    /**
     * {@link #insertWaitPut(List, String, long)}, running {@code beforeCommit} once the rows are sent and before the
     * COMMIT (a journal that cannot tell runs it after), so the caller may start its next group during the commit.
     */
    default String insertWaitPut(List<Job> jobs, String thread, long at, Runnable beforeCommit) {
        String groupKey = insertWaitPut(jobs, thread, at);
        beforeCommit.run();
        return groupKey;
    }

    /**
     * Up to {@code limit} push groups journaled before {@code before} whose Redis add is not confirmed (their storing
     * rows): the add may have failed.
     */
    List<UnconfirmedGroup> unconfirmedGroupsBefore(long before, int limit);

    /** Redis holds these groups' jobs: their storing rows go. */
    void confirmGroups(Collection<String> groupKeys);

    /**
     * In one transaction: applies the changes in order and appends their log rows. The last change per job wins, except
     * that a job's first end (Finish, Delete, Dead) stays: a later change of an ended job, in this call or any later
     * one, leaves its row as it is (a respawn moves a dead job back through {@link #transition}).
     */
    void apply(List<StateChange> changes);

    /**
     * {@link #apply} of the Dead changes of buried jobs, writing each one's tries used ({@code attempts}, by id) to its
     * row in the same transaction: the journal keeps what Redis counted, since Redis forgets the job.
     */
    default void bury(List<StateChange> deaths, Map<String, Integer> attempts) {
        apply(deaths);
    }

    /** Where the ends this journal leaves out (the job had ended already) are reported. */
    default void metrics(io.mykit.delay.queue.metrics.QueueMetrics metrics) {}

    /**
     * Folds the oldest delivery-ledger rows made before {@code before} into the job and log rows, about
     * {@code maxEntries} changes in one transaction (at least one whole row); returns how many changes it folded, 0
     * when none was due (or another node was folding the same rows).
     */
    default int foldLedger(long before, int maxEntries) {
        return 0;
    }

    /** Delivery-ledger rows not yet folded. */
    default int ledgerRows() {
        return 0;
    }

    /** Appends log rows only, leaving the job rows as they are: for events that do not change a job's state. */
    void log(List<StateChange> events);

    /**
     * Marks a job deleted unless it already ended (or, with {@code unlessWaitPut}, is still WaitPut); true when the row
     * changed.
     */
    boolean markDeleted(String jobId, boolean unlessWaitPut, String thread, long at);

    /**
     * A pending job's new schedule and body (PUT /jobs/{id}), logged as Delay; false if the job ended meanwhile (or is
     * unknown).
     */
    boolean reschedule(Job job, String thread, long at);

    Optional<JournalEntry> find(String jobId);

    /** {@link #find} for many jobs in one query: the entries of those that exist, by id. */
    Map<String, JournalEntry> findAll(Collection<String> jobIds);

    /**
     * Jobs in {@code status} last changed before {@code before}, oldest change first, keyset-paged: pass the last entry
     * of the previous page, or null for the first.
     */
    List<JournalEntry> findInStatusBefore(JobStatus status, long before, JournalEntry after, int limit);

    /** The job's log rows, oldest first. */
    List<JobLogRow> history(String jobId);

    /** One topic's jobs in one status, keyset-paged by id, optionally only the given ids. */
    List<Job> findByTopicAndStatus(
            String topic, JobStatus status, String afterId, Collection<String> onlyIds, int limit);

    /**
     * In one transaction: moves those of {@code ids} that are in {@code from} to {@code to}, with log rows; returns
     * them.
     */
    List<String> transition(Collection<String> ids, JobStatus from, JobStatus to, String thread, long at);

    /** Jobs not yet ended (to be in Redis), keyset-paged by id. */
    List<JournalEntry> findPendingAfter(String afterId, int limit);

    /** Up to {@code limit} ids of jobs that ended for good (Finish, Delete) and last changed before {@code before}. */
    List<String> endedBefore(long before, int limit);

    /**
     * Deletes up to {@code limit} log rows of those of {@code ids} still ended before {@code before}; returns how many.
     */
    int purgeLogs(Collection<String> ids, long before, int limit);

    /** Deletes the job rows of those of {@code ids} still ended before {@code before}; returns how many. */
    int purgeJobs(Collection<String> ids, long before);

    /**
     * Jobs of one bizKey, in one topic when {@code topic} is not null, only those not yet ended when
     * {@code pendingOnly}; keyset-paged by id.
     */
    List<JournalEntry> findByBizKey(String bizKey, String topic, boolean pendingOnly, String afterId, int limit);

    /**
     * Jobs of one bizKey in the topics some of {@code topicPatterns} match ({@code *}: any run of characters),
     * keyset-paged by id; jobs of other topics are not read.
     */
    List<JournalEntry> findByBizKeyInTopics(String bizKey, List<String> topicPatterns, String afterId, int limit);

    /** Dead letters per topic, by topic name, among the first {@code limit} dead jobs found (an index read). */
    Map<String, Long> deadLettersByTopic(int limit);

    /** One topic's dead letters, counted up to {@code limit} (an index read). */
    long deadLetters(String topic, int limit);
}
