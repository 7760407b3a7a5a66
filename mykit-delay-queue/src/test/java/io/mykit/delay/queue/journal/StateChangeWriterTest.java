package io.mykit.delay.queue.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The writer's batching, against a journal that only records what it was asked to apply. */
class StateChangeWriterTest {

    @Test
    void changes_made_within_the_linger_share_one_flush() throws Exception {
        RecordingJournal journal = new RecordingJournal();
        // a linger of seconds: on a loaded machine the second change can come long after the first
        try (StateChangeWriter writer = new StateChangeWriter(journal, 1000, 2_000)) {
            writer.start();
            writer.submit(StateChange.of("a", JobStatus.Ready, 1));
            Thread.sleep(30);
            writer.submit(StateChange.of("a", JobStatus.Finish, 2));
            assertThat(writer.flush(30_000)).isTrue();
        }
        assertThat(journal.applied)
                .singleElement()
                .satisfies(batch -> assertThat(batch)
                        .extracting(StateChange::status)
                        .containsExactly(JobStatus.Ready, JobStatus.Finish));
    }

    @Test
    void flush_of_endings_waits_for_an_end_under_way_and_then_for_its_write() throws Exception {
        RecordingJournal journal = new RecordingJournal();
        try (StateChangeWriter writer = new StateChangeWriter(journal, 1000, 0)) {
            writer.start();
            StateChangeWriter.Ending ending = writer.beginEnding();
            CompletableFuture<Boolean> flushed = CompletableFuture.supplyAsync(() -> {
                try {
                    return writer.flushEndings(30_000);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(200);
            assertThat(flushed).as("flush while an end is under way").isNotDone();
            writer.submit(StateChange.of("a", JobStatus.Finish, 1));
            ending.close();
            assertThat(flushed.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(journal.applied)
                    .flatExtracting(batch -> batch)
                    .extracting(StateChange::status)
                    .containsExactly(JobStatus.Finish);
        }
    }

    /** Keeps each batch given to {@link #apply}; nothing else is called by the writer. */
    private static final class RecordingJournal implements Journal {
        final List<List<StateChange>> applied = new CopyOnWriteArrayList<>();

        @Override
        public void apply(List<StateChange> changes) {
            applied.add(List.copyOf(changes));
        }

        @Override
        public Set<String> existingIds(Collection<String> ids) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String insertWaitPut(List<Job> jobs, String thread, long at) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<UnconfirmedGroup> unconfirmedGroupsBefore(long before, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void confirmGroups(Collection<String> groupKeys) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void log(List<StateChange> events) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean markDeleted(String jobId, boolean unlessWaitPut, String thread, long at) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean reschedule(io.mykit.delay.common.model.Job job, String thread, long at) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<JournalEntry> find(String jobId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<String, JournalEntry> findAll(Collection<String> jobIds) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<JournalEntry> findInStatusBefore(JobStatus status, long before, JournalEntry after, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<JobLogRow> history(String jobId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Job> findByTopicAndStatus(
                String topic, JobStatus status, String afterId, Collection<String> onlyIds, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<String> transition(Collection<String> ids, JobStatus from, JobStatus to, String thread, long at) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<JournalEntry> findPendingAfter(String afterId, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<String> endedBefore(long before, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int purgeLogs(Collection<String> ids, long before, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int purgeJobs(Collection<String> ids, long before) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<JournalEntry> findByBizKey(
                String bizKey, String topic, boolean pendingOnly, String afterId, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<JournalEntry> findByBizKeyInTopics(
                String bizKey, List<String> topicPatterns, String afterId, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<String, Long> deadLettersByTopic(int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long deadLetters(String topic, int limit) {
            throw new UnsupportedOperationException();
        }
    }
}
