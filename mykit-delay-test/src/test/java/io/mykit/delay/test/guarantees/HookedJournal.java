package io.mykit.delay.test.guarantees;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.JobLogRow;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChange;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The gateway's real journal, with one action run once right after the first page of pending jobs was read, or after
 * the first WaitPut insert committed: how a test puts other requests into the window between a restore's read and its
 * add, or between a push's commit and its Redis add, deterministically.
 */
public final class HookedJournal implements Journal {
    private final Journal real;
    private final Runnable afterFirstPage;
    private final Runnable afterFirstInsert;
    private final AtomicBoolean ran = new AtomicBoolean();

    private HookedJournal(Journal real, Runnable afterFirstPage, Runnable afterFirstInsert) {
        this.real = real;
        this.afterFirstPage = afterFirstPage;
        this.afterFirstInsert = afterFirstInsert;
    }

    public static HookedJournal afterFirstPage(Journal real, Runnable action) {
        return new HookedJournal(real, action, null);
    }

    public static HookedJournal afterFirstInsert(Journal real, Runnable action) {
        return new HookedJournal(real, null, action);
    }

    @Override
    public List<JournalEntry> findPendingAfter(String afterId, int limit) {
        List<JournalEntry> page = real.findPendingAfter(afterId, limit);
        if (afterFirstPage != null && !page.isEmpty() && ran.compareAndSet(false, true)) {
            afterFirstPage.run();
        }
        return page;
    }

    @Override
    public Set<String> existingIds(Collection<String> ids) {
        return real.existingIds(ids);
    }

    @Override
    public String insertWaitPut(List<Job> jobs, String thread, long at) {
        String groupKey = real.insertWaitPut(jobs, thread, at);
        if (afterFirstInsert != null && ran.compareAndSet(false, true)) {
            afterFirstInsert.run();
        }
        return groupKey;
    }

    @Override
    public List<io.mykit.delay.queue.journal.UnconfirmedGroup> unconfirmedGroupsBefore(long before, int limit) {
        return real.unconfirmedGroupsBefore(before, limit);
    }

    @Override
    public void confirmGroups(Collection<String> groupKeys) {
        real.confirmGroups(groupKeys);
    }

    @Override
    public void apply(List<StateChange> changes) {
        real.apply(changes);
    }

    @Override
    public void log(List<StateChange> events) {
        real.log(events);
    }

    @Override
    public boolean markDeleted(String jobId, boolean unlessWaitPut, String thread, long at) {
        return real.markDeleted(jobId, unlessWaitPut, thread, at);
    }

    @Override
    public boolean reschedule(io.mykit.delay.common.model.Job job, String thread, long at) {
        return real.reschedule(job, thread, at);
    }

    @Override
    public Optional<JournalEntry> find(String jobId) {
        return real.find(jobId);
    }

    @Override
    public Map<String, JournalEntry> findAll(Collection<String> jobIds) {
        return real.findAll(jobIds);
    }

    @Override
    public List<JournalEntry> findInStatusBefore(JobStatus status, long before, JournalEntry after, int limit) {
        return real.findInStatusBefore(status, before, after, limit);
    }

    @Override
    public List<JobLogRow> history(String jobId) {
        return real.history(jobId);
    }

    @Override
    public List<Job> findByTopicAndStatus(
            String topic, JobStatus status, String afterId, Collection<String> onlyIds, int limit) {
        return real.findByTopicAndStatus(topic, status, afterId, onlyIds, limit);
    }

    @Override
    public List<String> transition(Collection<String> ids, JobStatus from, JobStatus to, String thread, long at) {
        return real.transition(ids, from, to, thread, at);
    }

    @Override
    public List<String> endedBefore(long before, int limit) {
        return real.endedBefore(before, limit);
    }

    @Override
    public int purgeLogs(Collection<String> ids, long before, int limit) {
        return real.purgeLogs(ids, before, limit);
    }

    @Override
    public int purgeJobs(Collection<String> ids, long before) {
        return real.purgeJobs(ids, before);
    }

    @Override
    public List<JournalEntry> findByBizKey(
            String bizKey, String topic, boolean pendingOnly, String afterId, int limit) {
        return real.findByBizKey(bizKey, topic, pendingOnly, afterId, limit);
    }

    @Override
    public List<JournalEntry> findByBizKeyInTopics(
            String bizKey, List<String> topicPatterns, String afterId, int limit) {
        return real.findByBizKeyInTopics(bizKey, topicPatterns, afterId, limit);
    }

    @Override
    public Map<String, Long> deadLettersByTopic(int limit) {
        return real.deadLettersByTopic(limit);
    }

    @Override
    public long deadLetters(String topic, int limit) {
        return real.deadLetters(topic, limit);
    }
}
