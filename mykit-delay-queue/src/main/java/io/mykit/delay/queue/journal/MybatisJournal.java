package io.mykit.delay.queue.journal;

import static io.mykit.delay.queue.journal.JournalTransactions.guarded;
import static io.mykit.delay.queue.journal.JournalTransactions.guardedRun;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.metrics.QueueMetrics;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link Journal} on MySQL/MariaDB (or H2 in MySQL mode) through MyBatis-Plus mappers and plain JDBC statements. Each
 * table has its own class ({@link JobTable}, {@link DeliveryLedger}, {@link StoringRows}); this one decides which of
 * them a call writes or reads, and in which transaction ({@link JournalTransactions}).
 */
public class MybatisJournal implements Journal {
    private final JobTable jobTable;
    private final DeliveryLedger ledger;
    private final StoringRows storing;
    private final JournalReader reader;
    private final EndedJobsPurge purge;
    private final DeadLetterRows deadLetterRows;
    private final JournalTransactions transactions;
    private final boolean deliveryLedger;
    private final int pushCallTimeoutMs;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    public MybatisJournal(
            JobMapper jobs, JobLogMapper logs, JdbcTemplate jdbc, TransactionTemplate tx, JournalSettings settings) {
        this.transactions = new JournalTransactions(jdbc, tx, settings.singleRoundTrip());
        this.jobTable = new JobTable(jobs, logs, jdbc, settings.host());
        this.ledger = new DeliveryLedger(jdbc, transactions, jobTable, settings.host());
        this.storing = new StoringRows(jdbc, settings.host());
        this.reader = new JournalReader(jobTable, ledger, storing);
        this.purge = new EndedJobsPurge(jdbc);
        this.deadLetterRows = new DeadLetterRows(jdbc);
        this.deliveryLedger = settings.deliveryLedger();
        this.pushCallTimeoutMs = settings.pushCallTimeoutMs();
    }

    @Override
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
        ledger.metrics(metrics);
    }

    @Override
    public Set<String> existingIds(Collection<String> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return guarded(() -> jobTable.existingIds(ids));
    }

    @Override
    public String insertWaitPut(List<Job> batch, String thread, long at) {
        return insertWaitPut(batch, thread, at, () -> {});
    }

    @Override
    public String insertWaitPut(List<Job> batch, String thread, long at, Runnable beforeCommit) {
        if (batch.isEmpty()) {
            beforeCommit.run();
            return null;
        }
        LocalDateTime time = jobTable.toTime(at);
        String groupKey = storing.nextGroupKey();
        List<MultiRowInsert.Sql> statements = new ArrayList<>(jobTable.insertStatements(batch, thread, time));
        statements.add(
                storing.insertStatement(groupKey, batch.stream().map(Job::getId).toList(), time));
        // on one round trip the rows are sent and committed together: the caller's next group starts after this commit
        transactions.commit(statements, pushCallTimeoutMs, beforeCommit);
        return groupKey;
    }

    @Override
    public void apply(List<StateChange> changes) {
        applyWith(changes, List.of());
    }

    @Override
    public void bury(List<StateChange> deaths, Map<String, Integer> attempts) {
        applyWith(deaths, attempts.isEmpty() ? List.of() : List.of(JobTable.attemptsStatement(attempts)));
    }

    /** {@link #apply}, with {@code more} statements after the changes' in the same transaction. */
    private void applyWith(List<StateChange> changes, List<MultiRowInsert.Sql> more) {
        if (changes.isEmpty()) {
            return;
        }
        List<String> storedGroups = new ArrayList<>();
        List<StateChange> rowChanges = new ArrayList<>(changes.size());
        List<StateChange> ledgered = new ArrayList<>();
        for (StateChange change : changes) {
            if (change.groupStored()) {
                storedGroups.add(change.jobId());
            } else if (deliveryLedger && !change.onlyFromWaitPut()) {
                ledgered.add(change);
            } else {
                // a guarded "stored" change must see the row as it is: it goes to the row at once
                rowChanges.add(change);
            }
        }
        KeptEnds kept = new KeptEnds();
        List<MultiRowInsert.Sql> statements = jobTable.changeStatements(rowChanges, kept);
        if (!ledgered.isEmpty()) {
            statements.add(ledger.appendStatement(ledgered));
        }
        if (!storedGroups.isEmpty()) {
            statements.add(StoringRows.deleteStatement(storedGroups));
        }
        // after the changes' statements: KeptEnds reads their results by position
        statements.addAll(more);
        if (statements.isEmpty()) {
            return;
        }
        kept.report(transactions.commit(statements), metrics);
    }

    @Override
    public int foldLedger(long before, int maxEntries) {
        return ledger.fold(before, maxEntries);
    }

    @Override
    public int ledgerRows() {
        return ledger.rows();
    }

    @Override
    public void log(List<StateChange> events) {
        if (events.isEmpty()) {
            return;
        }
        guardedRun(() -> jobTable.log(events));
    }

    @Override
    public boolean markDeleted(String jobId, boolean unlessWaitPut, String thread, long at) {
        LocalDateTime time = jobTable.toTime(at);
        return Boolean.TRUE.equals(transactions.inTransaction(
                status -> !ledger.holdsEnd(jobId) && jobTable.markDeleted(jobId, unlessWaitPut, thread, time)));
    }

    @Override
    public boolean reschedule(Job job, String thread, long at) {
        LocalDateTime time = jobTable.toTime(at);
        return Boolean.TRUE.equals(transactions.inTransaction(
                status -> !ledger.holdsEnd(job.getId()) && jobTable.reschedule(job, thread, time)));
    }

    @Override
    public Optional<JournalEntry> find(String jobId) {
        return guarded(() -> reader.find(jobId));
    }

    @Override
    public Map<String, JournalEntry> findAll(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return Map.of();
        }
        Map<String, JournalEntry> found = new HashMap<>();
        guarded(() -> reader.findAll(jobIds)).forEach(e -> found.put(e.job().getId(), e));
        return found;
    }

    @Override
    public List<JournalEntry> findInStatusBefore(JobStatus status, long before, JournalEntry after, int limit) {
        return guarded(() -> jobTable.inStatusBefore(status, before, after, limit).stream()
                .map(JournalReader::entry)
                .toList());
    }

    @Override
    public List<Job> findByTopicAndStatus(
            String topic, JobStatus status, String afterId, Collection<String> onlyIds, int limit) {
        // dead letters (the one caller) are read by their rows' status: the ledger's go there first
        guardedRun(() -> ledger.foldDown(0));
        return guarded(() -> jobTable.byTopicAndStatus(topic, status, afterId, onlyIds, limit));
    }

    @Override
    public List<String> transition(Collection<String> ids, JobStatus from, JobStatus to, String thread, long at) {
        if (ids.isEmpty()) {
            return List.of();
        }
        LocalDateTime time = jobTable.toTime(at);
        // a move judged by the rows' status: the ledger's changes go there first
        guardedRun(() -> ledger.foldDown(0));
        return transactions.inTransaction(status -> jobTable.transition(ids, from, to, thread, time));
    }

    @Override
    public List<JournalEntry> findPendingAfter(String afterId, int limit) {
        return guarded(() -> reader.pages(after -> jobTable.pendingAfter(after, limit), afterId, limit, true));
    }

    @Override
    public List<JournalEntry> findByBizKey(
            String bizKey, String topic, boolean pendingOnly, String afterId, int limit) {
        return guarded(() -> reader.pages(
                after -> jobTable.byBizKey(bizKey, topic, pendingOnly, after, limit), afterId, limit, pendingOnly));
    }

    @Override
    public List<JournalEntry> findByBizKeyInTopics(
            String bizKey, List<String> topicPatterns, String afterId, int limit) {
        TopicConditions topics = TopicConditions.of(topicPatterns);
        return guarded(() ->
                reader.pages(after -> jobTable.byBizKeyInTopics(bizKey, topics, after, limit), afterId, limit, false));
    }

    @Override
    public List<JobLogRow> history(String jobId) {
        return guarded(() -> reader.history(jobId));
    }

    @Override
    public List<String> endedBefore(long before, int limit) {
        return guarded(() -> purge.endedBefore(jobTable.toTime(before), limit));
    }

    @Override
    public int purgeLogs(Collection<String> ids, long before, int limit) {
        if (ids.isEmpty()) {
            return 0;
        }
        return guarded(() -> purge.deleteLogs(ids, jobTable.toTime(before), limit));
    }

    @Override
    public int purgeJobs(Collection<String> ids, long before) {
        if (ids.isEmpty()) {
            return 0;
        }
        return guarded(() -> purge.deleteJobs(ids, jobTable.toTime(before)));
    }

    @Override
    public List<UnconfirmedGroup> unconfirmedGroupsBefore(long before, int limit) {
        return guarded(() -> storing.before(jobTable.toTime(before), limit));
    }

    @Override
    public void confirmGroups(Collection<String> groupKeys) {
        if (groupKeys.isEmpty()) {
            return;
        }
        guardedRun(() -> storing.delete(groupKeys));
    }

    @Override
    public Map<String, Long> deadLettersByTopic(int limit) {
        return guarded(() -> deadLetterRows.byTopic(limit));
    }

    @Override
    public long deadLetters(String topic, int limit) {
        return guarded(() -> deadLetterRows.ofTopic(topic, limit));
    }
}
