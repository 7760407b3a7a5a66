package io.mykit.delay.queue.journal;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.metrics.QueueMetrics;
import org.apache.ibatis.exceptions.PersistenceException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** {@link Journal} on MySQL/MariaDB (or H2 in MySQL mode) through MyBatis-Plus mappers. */
public class MybatisJournal implements Journal {
    private static final List<Integer> TERMINAL = List.of(
            JobStatus.Finish.code(), JobStatus.Delete.code(), JobStatus.Dead.code());
    private static final List<Integer> TERMINAL_OR_WAIT_PUT = List.of(
            JobStatus.Finish.code(), JobStatus.Delete.code(), JobStatus.Dead.code(), JobStatus.WaitPut.code());

    private static final MultiRowInsert<JobRow> JOB_INSERT = new MultiRowInsert<>(
            "INSERT IGNORE INTO mykit_delay_queue_job (id, bizkey, topic, subtopic, delay, priority, ttl, tries, attempts,"
                    + " create_time, due_time, body, status, update_time)", 14,
            r -> new Object[] {r.getId(), r.getBizKey(), r.getTopic(), r.getSubtopic(), r.getDelay(), r.getPriority(),
                    r.getTtl(), r.getTries(), r.getAttempts(), r.getCreateTime(), r.getDueTime(), r.getBody(),
                    r.getStatus(), r.getUpdateTime()});
    private static final MultiRowInsert<JobLogRow> LOG_INSERT = new MultiRowInsert<>(
            "INSERT INTO mykit_delay_queue_job_log (id, status, thread, update_time, host)", 5,
            r -> new Object[] {r.id(), r.status(), r.thread(), r.updateTime(), r.host()});
    /** Ended for good: Dead is not among them, a dead letter waits in the journal for an operator's respawn or drop. */
    private static final String PURGEABLE = "status IN (" + JobStatus.Finish.code() + ", " + JobStatus.Delete.code() + ")";
    private static final String ENDED_BEFORE = "SELECT id FROM mykit_delay_queue_job WHERE " + PURGEABLE
            + " AND update_time < ? LIMIT ?";
    private static final String STORING_INSERT =
            "INSERT INTO mykit_delay_queue_storing (group_id, ids, host, create_time) VALUES (?, ?, ?, ?)";
    private static final String STORING_LISTS = "SELECT 1 FROM mykit_delay_queue_storing WHERE LOCATE(?, ids) > 0 LIMIT 1";
    /** Delete unless ended, WaitPut, or listed in a storing row: a job its push may still add to Redis is not cancelled. */
    private static final String DELETE_UNLESS_STORING = "UPDATE mykit_delay_queue_job SET status = ?, update_time = ?"
            + " WHERE id = ? AND status NOT IN (" + TERMINAL_OR_WAIT_PUT.stream().map(String::valueOf)
            .collect(java.util.stream.Collectors.joining(",")) + ")"
            + " AND NOT EXISTS (SELECT 1 FROM mykit_delay_queue_storing s WHERE LOCATE(?, s.ids) > 0)";
    private static final String LEDGER_INSERT =
            "INSERT INTO mykit_delay_queue_ledger (changes, threads, host, base_time) VALUES (?, ?, ?, ?)";
    private static final String LEDGER_COLUMNS = "SELECT seq, changes, threads, host, base_time FROM mykit_delay_queue_ledger";
    /** Ledger rows a read lays over its job rows before it folds the ledger down first (a burst's backlog). */
    private static final int LEDGER_OVERLAY_ROWS = 64;
    /** Up to this many ids a read finds their ledger entries by LOCATE; more read the (small) ledger whole. */
    private static final int LEDGER_POINT_IDS = 8;
    private static final int FOLD_ROWS_MAX = 200;
    private static final int FOLD_DOWN_WAITS = 10;
    private static final int DEADLOCK_RETRIES = 3;
    private static final LocalDateTime FIRST_TIME = LocalDateTime.of(1000, 1, 1, 0, 0);
    private static final StatusUpdate STATUS_UPDATE = new StatusUpdate();

    private final JobMapper jobs;
    private final JobLogMapper logs;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final String host;
    private final ZoneId zone = ZoneId.systemDefault();
    /** Whether transactions go as one round trip ({@link OneTrip}): null until a connection has told. */
    private volatile Boolean oneTrip;
    private volatile boolean oneTripWanted = true;
    private volatile int pushCallTimeoutMs;
    /** Whether the state writer's flushes go to the delivery ledger ({@code mykit.delay.journal.ledger}). */
    private volatile boolean ledger;
    /** Storing rows are keyed by this JVM's random prefix and a counter: unique whatever ids the groups hold. */
    private final String groupPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";
    private final AtomicLong groupCounter = new AtomicLong();
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    public MybatisJournal(JobMapper jobs, JobLogMapper logs, JdbcTemplate jdbc, TransactionTemplate tx, String host) {
        this.jobs = jobs;
        this.logs = logs;
        this.jdbc = jdbc;
        this.tx = tx;
        this.host = host;
    }

    /**
     * How long a push's journal call may wait for the database before it fails (0 = as the driver does): a push may be
     * committed on its request thread, which must answer within {@code journal.push-timeout} (PushPipeline).
     */
    public MybatisJournal pushCallTimeout(java.time.Duration timeout) {
        this.pushCallTimeoutMs = (int) Math.min(Integer.MAX_VALUE, Math.max(0, timeout.toMillis()));
        return this;
    }

    /**
     * {@code true} appends each state-change flush as one packed ledger row, folded into the job and log rows later
     * ({@link #foldLedger}); reads lay unfolded entries over the rows either way ({@code mykit.delay.journal.ledger}).
     */
    public MybatisJournal deliveryLedger(boolean enabled) {
        this.ledger = enabled;
        return this;
    }

    @Override
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** {@code false} keeps every transaction on Spring's transaction manager ({@code mykit.delay.journal.one-trip}). */
    public MybatisJournal oneTrip(boolean wanted) {
        this.oneTripWanted = wanted;
        return this;
    }

    /** Asks a connection once; while the database does not answer, this call takes the transaction manager's road. */
    private boolean oneTrip() {
        Boolean known = oneTrip;
        if (known == null) {
            if (!oneTripWanted) {
                known = false;
            } else {
                try {
                    known = OneTrip.works(jdbc);
                } catch (DataAccessException down) {
                    return false;
                }
            }
            oneTrip = known;
        }
        return known;
    }

    @Override
    public Set<String> existingIds(Collection<String> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return guarded(() -> new HashSet<>(jobs.findExistingIds(ids)));
    }

    @Override
    public String insertWaitPut(List<Job> batch, String thread, long at) {
        return insertWaitPut(batch, thread, at, () -> { });
    }

    @Override
    public String insertWaitPut(List<Job> batch, String thread, long at, Runnable beforeCommit) {
        if (batch.isEmpty()) {
            beforeCommit.run();
            return null;
        }
        LocalDateTime time = toTime(at);
        List<JobRow> rows = new ArrayList<>(batch.size());
        List<JobLogRow> logRows = new ArrayList<>(batch.size());
        StringBuilder ids = new StringBuilder(batch.size() * 40).append(',');
        for (Job job : batch) {
            rows.add(JobRow.of(job, JobStatus.Delay.code(), time));
            logRows.add(new JobLogRow(job.getId(), JobStatus.WaitPut.code(), thread, time, host));
            ids.append(job.getId()).append(',');
        }
        String groupKey = groupPrefix + groupCounter.incrementAndGet();
        MultiRowInsert.Sql storing = new MultiRowInsert.Sql(STORING_INSERT,
                List.of(groupKey, ids.toString(), host, MultiRowInsert.text(time)));
        if (oneTrip()) {
            // the rows are sent and committed together: the caller's next group starts after this commit
            guarded(() -> {
                OneTrip.run(jdbc, List.of(JOB_INSERT.statement(rows), LOG_INSERT.statement(logRows), storing),
                        pushCallTimeoutMs);
                return null;
            });
            beforeCommit.run();
            return groupKey;
        }
        guarded(() -> tx.execute(status -> {
            jdbc.execute((ConnectionCallback<Void>) connection -> {
                OneTrip.bound(connection, pushCallTimeoutMs);
                return null;
            });
            JOB_INSERT.insert(jdbc, rows);
            LOG_INSERT.insert(jdbc, logRows);
            MultiRowInsert.update(jdbc, storing.text(), storing.args());
            beforeCommit.run();
            return null;
        }));
        return groupKey;
    }

    @Override
    public void apply(List<StateChange> changes) {
        if (changes.isEmpty()) {
            return;
        }
        List<String> storedGroups = new ArrayList<>();
        List<StateChange> rowChanges = new ArrayList<>(changes.size());
        List<StateChange> ledgered = new ArrayList<>();
        for (StateChange change : changes) {
            if (change.groupStored()) {
                storedGroups.add(change.jobId());
            } else if (ledger && !change.onlyFromWaitPut()) {
                ledgered.add(change);
            } else {
                // a guarded "stored" change must see the row as it is: it goes to the row at once
                rowChanges.add(change);
            }
        }
        KeptEnds kept = new KeptEnds();
        List<MultiRowInsert.Sql> statements = rowStatements(rowChanges, i -> host, kept);
        if (!ledgered.isEmpty()) {
            LedgerRow row = LedgerRow.pack(ledgered, host);
            statements.add(new MultiRowInsert.Sql(LEDGER_INSERT, List.of(row.changes(), row.threads(), host, row.base())));
        }
        if (!storedGroups.isEmpty()) {
            statements.add(storingDelete(storedGroups));
        }
        if (statements.isEmpty()) {
            return;
        }
        int[] changed = oneTrip()
                ? guarded(() -> OneTrip.run(jdbc, statements, 0))
                : guarded(() -> tx.execute(status -> runEach(statements)));
        kept.report(changed, metrics);
    }

    /** Runs the statements one by one (inside the caller's transaction); returns each one's count of rows changed. */
    private int[] runEach(List<MultiRowInsert.Sql> statements) {
        int[] changed = new int[statements.size()];
        for (int i = 0; i < changed.length; i++) {
            changed[i] = MultiRowInsert.update(jdbc, statements.get(i).text(), statements.get(i).args());
        }
        return changed;
    }

    /**
     * The status UPDATEs (one per target status, the decisive change per job, an ended row never changed again) and
     * the log INSERT that journal {@code changes} in their rows; {@code hostOf} names the node of the change at an
     * index. {@code kept} learns which ends they may leave out (the log keeps a row of each).
     */
    private List<MultiRowInsert.Sql> rowStatements(List<StateChange> changes,
                                                   java.util.function.IntFunction<String> hostOf, KeptEnds kept) {
        List<MultiRowInsert.Sql> statements = new ArrayList<>();
        if (changes.isEmpty()) {
            return statements;
        }
        Map<StateChange, List<String>> idsByKind = new LinkedHashMap<>();
        long latest = 0;
        java.util.Collection<StateChange> finals = StateChange.finalPerJob(changes);
        kept.outrankedIn(changes, finals);
        for (StateChange change : finals) {
            StateChange kind = new StateChange("", change.status(), change.onlyFromWaitPut(), "", 0);
            idsByKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(change.jobId());
            latest = Math.max(latest, change.at());
        }
        LocalDateTime updateTime = toTime(latest);
        List<JobLogRow> logRows = new ArrayList<>(changes.size());
        for (int i = 0; i < changes.size(); i++) {
            StateChange c = changes.get(i);
            logRows.add(new JobLogRow(c.jobId(), c.status().code(), abbreviate(c.thread()), toTime(c.at()), hostOf.apply(i)));
        }
        idsByKind.forEach((kind, ids) -> {
            if (kind.status().isTerminal()) {
                kept.guarded(statements.size(), kind.status(), ids.size());
            }
            // an ended job stays as it ended: neither a late Ready (flushed after a Delete) nor a late end (a broker's
            // Finish after the burial's Dead, a dropped dead letter's send confirmed) changes it; only a respawn does
            statements.add(STATUS_UPDATE.statement(ids, kind.status().code(), updateTime,
                    kind.onlyFromWaitPut() ? JobStatus.WaitPut.code() : null, TERMINAL));
        });
        statements.add(LOG_INSERT.statement(logRows));
        return statements;
    }

    @Override
    public int foldLedger(long before, int maxEntries) {
        // read outside the transaction: ledger rows never change, and the DELETE below tells whether they are still ours,
        // so a fold with nothing due (the folder's idle look, on every node) is one query
        List<LedgerRow> due = guarded(() -> jdbc.query(LEDGER_COLUMNS + " WHERE base_time < ? ORDER BY seq LIMIT ?",
                MybatisJournal::ledgerRow, before, FOLD_ROWS_MAX));
        List<Long> seqs = new ArrayList<>();
        List<StateChange> changes = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        for (LedgerRow row : due) {
            if (!seqs.isEmpty() && changes.size() >= maxEntries) {
                break;
            }
            seqs.add(row.seq());
            for (LedgerRow.Entry entry : row.entries()) {
                changes.add(new StateChange(entry.jobId(), entry.status(), false, entry.thread(), entry.at()));
                hosts.add(entry.host());
            }
        }
        if (seqs.isEmpty()) {
            return 0;
        }
        KeptEnds kept = new KeptEnds();
        int[] changed = guarded(() -> tx.execute(status -> {
            // rows another node folds meanwhile are locked by its DELETE: ours then deletes fewer and backs off
            int taken = MultiRowInsert.update(jdbc, "DELETE FROM mykit_delay_queue_ledger WHERE seq IN ("
                    + placeholders(seqs.size()) + ")", new ArrayList<>(seqs));
            if (taken != seqs.size()) {
                status.setRollbackOnly();
                return null;
            }
            return runEach(rowStatements(changes, hosts::get, kept));
        }));
        if (changed == null) {
            return 0;
        }
        kept.report(changed, metrics);
        return changes.size();
    }

    @Override
    public int ledgerRows() {
        Integer rows = guarded(() -> jdbc.queryForObject("SELECT COUNT(*) FROM mykit_delay_queue_ledger", Integer.class));
        return rows == null ? 0 : rows;
    }

    private static LedgerRow ledgerRow(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        return new LedgerRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5));
    }

    /**
     * The unfolded ledger entries of {@code ids} (null: of every job), by id, in ledger order: a few ids by LOCATE,
     * more by reading the ledger whole (folded down first when a burst left it large). Read it BEFORE the job rows it
     * is laid over: a fold between the two reads then shows in the rows, while read after them it would be in neither.
     */
    private Map<String, List<LedgerRow.Entry>> unfolded(Collection<String> ids) {
        if (ids != null && ids.isEmpty()) {
            return Map.of();
        }
        List<LedgerRow> rows;
        if (ids != null && ids.size() <= LEDGER_POINT_IDS) {
            String where = String.join(" OR ", java.util.Collections.nCopies(ids.size(), "LOCATE(?, changes) > 0"));
            rows = jdbc.query(LEDGER_COLUMNS + " WHERE " + where + " ORDER BY seq", MybatisJournal::ledgerRow,
                    ids.stream().map(LedgerRow::marker).toArray());
        } else {
            foldDown();
            rows = jdbc.query(LEDGER_COLUMNS + " ORDER BY seq", MybatisJournal::ledgerRow);
        }
        if (rows.isEmpty()) {
            return Map.of();
        }
        Set<String> wanted = ids == null ? null : ids instanceof Set<String> set ? set : new HashSet<>(ids);
        Map<String, List<LedgerRow.Entry>> byId = new HashMap<>();
        for (LedgerRow row : rows) {
            for (LedgerRow.Entry entry : row.entries()) {
                if (wanted == null || wanted.contains(entry.jobId())) {
                    byId.computeIfAbsent(entry.jobId(), id -> new ArrayList<>()).add(entry);
                }
            }
        }
        return byId;
    }

    /** Folds the ledger until at most {@link #LEDGER_OVERLAY_ROWS} rows are left, so that a whole read stays small. */
    private void foldDown() {
        foldDown(LEDGER_OVERLAY_ROWS);
    }

    /**
     * Folds the ledger until at most {@code rowsLeft} rows are left or every row made before this call is folded: rows
     * appended meanwhile (other nodes, a busy state writer) are not chased, so the call ends under any load. A row
     * another node is folding gets {@link #FOLD_DOWN_WAITS} short waits to be committed.
     */
    private void foldDown(int rowsLeft) {
        long started = System.currentTimeMillis();
        int waits = 0;
        while (ledgerRows() > rowsLeft) {
            if (foldLedger(started, 5_000) > 0) {
                waits = 0;
            } else if (++waits > FOLD_DOWN_WAITS) {
                return;
            } else {
                sleepBriefly();
            }
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("journal", "interrupted while folding the ledger", e);
        }
    }

    /**
     * The entries of {@code rows} as the journal knows them: the unfolded ledger entries {@code ledgered} (read before
     * the rows) laid over each row that has not ended, then (with {@code storing}) a Delay job listed in a storing row
     * as WaitPut ({@link #withStoring}).
     */
    private List<JournalEntry> effective(List<JobRow> rows, boolean storing, Map<String, List<LedgerRow.Entry>> ledgered) {
        List<JobRow> plain = ledgered.isEmpty() ? rows : rows.stream()
                .filter(row -> rowStatus(row).isTerminal() || !ledgered.containsKey(row.getId())).toList();
        List<JournalEntry> plainEntries = storing ? withStoring(plain) : plain.stream().map(this::entry).toList();
        if (plain.size() == rows.size()) {
            return plainEntries;
        }
        Map<String, JournalEntry> byId = new HashMap<>();
        plainEntries.forEach(entry -> byId.put(entry.job().getId(), entry));
        List<JournalEntry> entries = new ArrayList<>(rows.size());
        for (JobRow row : rows) {
            JournalEntry plainEntry = byId.get(row.getId());
            entries.add(plainEntry != null ? plainEntry : laidOver(row, ledgered.get(row.getId())));
        }
        return entries;
    }

    private JournalEntry laidOver(JobRow row, List<LedgerRow.Entry> laid) {
        return new JournalEntry(row.toJob(), LedgerRow.laidOver(rowStatus(row), laid),
                toTime(laid.get(laid.size() - 1).at()));
    }

    private static JobStatus rowStatus(JobRow row) {
        return row.getStatus() == null ? JobStatus.WaitPut : JobStatus.ofCode(row.getStatus()).orElse(JobStatus.WaitPut);
    }

    /**
     * Pages of {@code page} (keyset by id) laid over the ledger, with ended ones left out when {@code pendingOnly}:
     * pages are read until {@code limit} entries are found or the rows end, so a short answer still means the end.
     */
    private List<JournalEntry> pagedEffective(java.util.function.Function<String, List<JobRow>> page, String afterId,
                                              int limit, boolean pendingOnly) {
        List<JournalEntry> found = new ArrayList<>(limit);
        String after = afterId;
        while (found.size() < limit) {
            Map<String, List<LedgerRow.Entry>> ledgered = unfolded(null);
            List<JobRow> rows = page.apply(after);
            if (rows.isEmpty()) {
                break;
            }
            for (JournalEntry entry : effective(rows, true, ledgered)) {
                if (found.size() < limit && !(pendingOnly && entry.status().isTerminal())) {
                    found.add(entry);
                }
            }
            if (rows.size() < limit) {
                break;
            }
            after = rows.get(rows.size() - 1).getId();
        }
        return found;
    }

    /** Whether the ledger holds an ended entry (Finish, Delete, Dead) of {@code jobId} not yet folded into its row. */
    private boolean endedInLedger(String jobId) {
        return !jdbc.queryForList("SELECT 1 FROM mykit_delay_queue_ledger WHERE LOCATE(?, changes) > 0"
                        + " OR LOCATE(?, changes) > 0 OR LOCATE(?, changes) > 0 LIMIT 1", Integer.class,
                LedgerRow.marker(jobId, JobStatus.Finish), LedgerRow.marker(jobId, JobStatus.Delete),
                LedgerRow.marker(jobId, JobStatus.Dead)).isEmpty();
    }

    @Override
    public void log(List<StateChange> events) {
        if (events.isEmpty()) {
            return;
        }
        List<JobLogRow> rows = events.stream()
                .map(c -> new JobLogRow(c.jobId(), c.status().code(), abbreviate(c.thread()), toTime(c.at()), host))
                .toList();
        // one statement: atomic without a transaction around it
        guarded(() -> LOG_INSERT.insert(jdbc, rows));
    }

    @Override
    public boolean markDeleted(String jobId, boolean unlessWaitPut, String thread, long at) {
        LocalDateTime time = toTime(at);
        return Boolean.TRUE.equals(guarded(() -> tx.execute(status -> {
            if (endedInLedger(jobId)) {
                return false;
            }
            int changed = unlessWaitPut
                    ? jdbc.update(DELETE_UNLESS_STORING, JobStatus.Delete.code(), MultiRowInsert.text(time), jobId,
                            listed(jobId))
                    : STATUS_UPDATE.update(jdbc, List.of(jobId), JobStatus.Delete.code(), time, null, TERMINAL);
            if (changed > 0) {
                LOG_INSERT.insert(jdbc, List.of(new JobLogRow(jobId, JobStatus.Delete.code(), abbreviate(thread), time, host)));
            }
            return changed > 0;
        })));
    }

    @Override
    public boolean reschedule(Job job, String thread, long at) {
        LocalDateTime time = toTime(at);
        return Boolean.TRUE.equals(guarded(() -> tx.execute(status -> {
            if (endedInLedger(job.getId())) {
                return false;
            }
            int changed = jdbc.update("UPDATE mykit_delay_queue_job SET create_time = ?, delay = ?, due_time = ?, body = ?,"
                    + " update_time = ? WHERE id = ? AND status NOT IN (?, ?, ?)", job.getCreateTime(), job.getDelay(),
                    job.dueTime(), job.getBody(), time, job.getId(), TERMINAL.get(0), TERMINAL.get(1), TERMINAL.get(2));
            if (changed > 0) {
                LOG_INSERT.insert(jdbc, List.of(new JobLogRow(job.getId(), JobStatus.Delay.code(), abbreviate(thread), time,
                        host)));
            }
            return changed > 0;
        })));
    }

    @Override
    public Optional<JournalEntry> find(String jobId) {
        return guarded(() -> {
            List<LedgerRow.Entry> laid = unfolded(List.of(jobId)).get(jobId);
            JobRow row = jobs.selectById(jobId);
            if (row == null) {
                return Optional.empty();
            }
            if (laid != null && !rowStatus(row).isTerminal()) {
                return Optional.of(laidOver(row, laid));
            }
            boolean storing = isDelay(row) && !jdbc.queryForList(STORING_LISTS, Integer.class, listed(jobId)).isEmpty();
            return Optional.of(storing ? waitPut(row) : entry(row));
        });
    }

    @Override
    public Map<String, JournalEntry> findAll(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return Map.of();
        }
        Map<String, JournalEntry> found = new HashMap<>();
        guarded(() -> {
            Map<String, List<LedgerRow.Entry>> ledgered = unfolded(jobIds);
            return effective(jobs.selectBatchIds(jobIds), false, ledgered);
        }).forEach(e -> found.put(e.job().getId(), e));
        return found;
    }

    @Override
    public List<JournalEntry> findInStatusBefore(JobStatus status, long before, JournalEntry after, int limit) {
        // the first page starts after the earliest time a DATETIME holds
        LocalDateTime afterTime = after == null ? FIRST_TIME : after.updateTime();
        String afterId = after == null ? "" : after.job().getId();
        return guarded(() -> jobs.findInStatusBefore(status.code(), toTime(before), afterTime, afterId, limit)
                .stream().map(this::entry).toList());
    }

    @Override
    public List<Job> findByTopicAndStatus(String topic, JobStatus status, String afterId, Collection<String> onlyIds,
                                          int limit) {
        // dead letters (the one caller) are read by their rows' status: the ledger's go there first
        guarded(() -> {
            foldDown(0);
            return null;
        });
        return guarded(() -> jobs.findByTopicAndStatus(topic, status.code(), afterId,
                onlyIds == null || onlyIds.isEmpty() ? null : onlyIds, limit).stream().map(JobRow::toJob).toList());
    }

    @Override
    public List<String> transition(Collection<String> ids, JobStatus from, JobStatus to, String thread, long at) {
        if (ids.isEmpty()) {
            return List.of();
        }
        LocalDateTime time = toTime(at);
        // a move judged by the rows' status: the ledger's changes go there first
        guarded(() -> {
            foldDown(0);
            return null;
        });
        return guarded(() -> tx.execute(status -> {
            List<String> moving = jobs.selectBatchIds(ids).stream()
                    .filter(row -> row.getStatus() != null && row.getStatus() == from.code())
                    .map(JobRow::getId).toList();
            if (!moving.isEmpty()) {
                STATUS_UPDATE.update(jdbc, moving, to.code(), time, from.code(), null);
                LOG_INSERT.insert(jdbc, moving.stream().map(id -> new JobLogRow(id, to.code(), abbreviate(thread), time, host)).toList());
            }
            return moving;
        }));
    }

    @Override
    public List<JournalEntry> findPendingAfter(String afterId, int limit) {
        return guarded(() -> pagedEffective(after -> jobs.findPendingAfter(after, limit), afterId, limit, true));
    }

    @Override
    public List<String> endedBefore(long before, int limit) {
        // the cut-off as text: a LocalDateTime parameter loses its milliseconds on MariaDB (MillisDateTimeTypeHandler)
        return guarded(() -> jdbc.queryForList(ENDED_BEFORE, String.class, MultiRowInsert.text(toTime(before)), limit));
    }

    @Override
    public int purgeLogs(Collection<String> ids, long before, int limit) {
        if (ids.isEmpty()) {
            return 0;
        }
        // re-checked against the job row, so a log row goes only with a job that is still purgeable
        String sql = "DELETE FROM mykit_delay_queue_job_log WHERE id IN (" + placeholders(ids.size()) + ")"
                + " AND EXISTS (SELECT 1 FROM mykit_delay_queue_job j WHERE j.id = mykit_delay_queue_job_log.id AND j."
                + PURGEABLE + " AND j.update_time < ?) LIMIT ?";
        List<Object> args = new ArrayList<>(ids);
        args.add(MultiRowInsert.text(toTime(before)));
        args.add(limit);
        return guarded(() -> MultiRowInsert.update(jdbc, sql, args));
    }

    @Override
    public int purgeJobs(Collection<String> ids, long before) {
        if (ids.isEmpty()) {
            return 0;
        }
        String sql = "DELETE FROM mykit_delay_queue_job WHERE id IN (" + placeholders(ids.size()) + ") AND " + PURGEABLE
                + " AND update_time < ?";
        List<Object> args = new ArrayList<>(ids);
        args.add(MultiRowInsert.text(toTime(before)));
        return guarded(() -> MultiRowInsert.update(jdbc, sql, args));
    }

    private static String placeholders(int count) {
        return String.join(",", java.util.Collections.nCopies(count, "?"));
    }

    @Override
    public List<JournalEntry> findByBizKey(String bizKey, String topic, boolean pendingOnly, String afterId, int limit) {
        return guarded(() -> pagedEffective(after -> jobs.findByBizKey(bizKey, topic, pendingOnly, after, limit), afterId,
                limit, pendingOnly));
    }

    @Override
    public List<StoringGroup> storingBefore(long before, int limit) {
        // no ORDER BY: the table has no index on the time, and the caller deletes each page it took
        return guarded(() -> jdbc.query("SELECT group_id, ids, create_time FROM mykit_delay_queue_storing"
                        + " WHERE create_time < ? LIMIT ?",
                (rs, n) -> new StoringGroup(rs.getString(1), splitIds(rs.getString(2)), rs.getTimestamp(3).getTime()),
                MultiRowInsert.text(toTime(before)), limit));
    }

    @Override
    public void forgetStoring(Collection<String> groupKeys) {
        if (groupKeys.isEmpty()) {
            return;
        }
        MultiRowInsert.Sql delete = storingDelete(groupKeys);
        guarded(() -> MultiRowInsert.update(jdbc, delete.text(), delete.args()));
    }

    private static MultiRowInsert.Sql storingDelete(Collection<String> groupKeys) {
        return new MultiRowInsert.Sql("DELETE FROM mykit_delay_queue_storing WHERE group_id IN ("
                + placeholders(groupKeys.size()) + ")", new ArrayList<>(groupKeys));
    }

    /**
     * Entries of {@code rows}, those listed in a storing row as WaitPut. The storing rows are read after the job rows:
     * a group committed its rows together, and its storing row goes only once Redis holds the group, so a job read as
     * Delay here was added to Redis before this call read the storing table.
     */
    private List<JournalEntry> withStoring(List<JobRow> rows) {
        if (rows.stream().noneMatch(MybatisJournal::isDelay)) {
            return rows.stream().map(this::entry).toList();
        }
        Set<String> storing = new HashSet<>();
        jdbc.query("SELECT ids FROM mykit_delay_queue_storing", rs -> {
            storing.addAll(splitIds(rs.getString(1)));
        });
        return rows.stream().map(row -> isDelay(row) && storing.contains(row.getId()) ? waitPut(row) : entry(row))
                .toList();
    }

    private static boolean isDelay(JobRow row) {
        return row.getStatus() != null && row.getStatus() == JobStatus.Delay.code();
    }

    private static String listed(String jobId) {
        return "," + jobId + ",";
    }

    private static List<String> splitIds(String packed) {
        List<String> ids = new ArrayList<>();
        int start = 1;
        for (int comma = packed.indexOf(',', start); comma > 0; comma = packed.indexOf(',', start)) {
            if (comma > start) {
                ids.add(packed.substring(start, comma));
            }
            start = comma + 1;
        }
        return ids;
    }

    private JournalEntry waitPut(JobRow row) {
        return new JournalEntry(row.toJob(), JobStatus.WaitPut, row.getUpdateTime());
    }

    private JournalEntry entry(JobRow row) {
        return new JournalEntry(row.toJob(), JobStatus.ofCode(row.getStatus()).orElse(JobStatus.WaitPut), row.getUpdateTime());
    }

    @Override
    public List<JobLogRow> history(String jobId) {
        return guarded(() -> {
            List<LedgerRow.Entry> laid = unfolded(List.of(jobId)).getOrDefault(jobId, List.of());
            List<JobLogRow> rows = new ArrayList<>(logs.findById(jobId));
            // changes still in the ledger come after every folded one; one folded between the two reads is there once
            Set<JobLogRow> folded = new HashSet<>(rows);
            for (LedgerRow.Entry entry : laid) {
                JobLogRow row = new JobLogRow(jobId, entry.status().code(), entry.thread(), toTime(entry.at()), entry.host());
                if (!folded.contains(row)) {
                    rows.add(row);
                }
            }
            return rows;
        });
    }

    private LocalDateTime toTime(long millis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone);
    }

    /** A thread name as the log table's column holds it. */
    static String abbreviate(String thread) {
        return thread.length() <= 60 ? thread : thread.substring(0, 60);
    }

    /** Runs journal work; a transaction chosen as a deadlock victim was rolled back whole, so it is run again. */
    private static <T> T guarded(Supplier<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (PessimisticLockingFailureException e) {
                if (attempt >= DEADLOCK_RETRIES) {
                    throw new StoreUnavailableException("journal", rootMessage(e), e);
                }
            } catch (DataAccessException | TransactionException | PersistenceException e) {
                throw new StoreUnavailableException("journal", rootMessage(e), e);
            }
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
