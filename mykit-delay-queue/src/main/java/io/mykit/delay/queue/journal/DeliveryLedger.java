package io.mykit.delay.queue.journal;

import static io.mykit.delay.queue.journal.JournalTransactions.guarded;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.metrics.QueueMetrics;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The delivery ledger ({@code mykit_delay_queue_ledger}): state-change flushes appended as packed rows
 * ({@link LedgerRow}), folded into the job and log rows later in ledger order, and read back for the jobs whose entries
 * are not folded yet, so that reads can overlay them on the rows.
 */
final class DeliveryLedger {
    private static final String INSERT =
            "INSERT INTO mykit_delay_queue_ledger (changes, threads, host, base_time) VALUES (?, ?, ?, ?)";
    private static final String COLUMNS = "SELECT seq, changes, threads, host, base_time FROM mykit_delay_queue_ledger";
    /** Ledger rows a read overlays on its job rows before it folds the ledger down first (a burst's backlog). */
    private static final int OVERLAY_ROWS = 64;
    /** Up to this many ids a read finds their ledger entries by LOCATE; more read the (small) ledger whole. */
    private static final int POINT_IDS = 8;

    private static final int FOLD_ROWS_MAX = 200;
    private static final int FOLD_DOWN_WAITS = 10;

    private final JdbcTemplate jdbc;
    private final JournalTransactions transactions;
    private final JobTable jobTable;
    private final String host;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    DeliveryLedger(JdbcTemplate jdbc, JournalTransactions transactions, JobTable jobTable, String host) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.jobTable = jobTable;
        this.host = host;
    }

    /** Where the ends a fold leaves out (the job had ended already) are reported. */
    void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** The INSERT, not yet sent, of one row packing {@code changes} (not empty, none of them guarded or a group's). */
    MultiRowInsert.Sql appendStatement(List<StateChange> changes) {
        LedgerRow row = LedgerRow.pack(changes, host);
        return new MultiRowInsert.Sql(INSERT, List.of(row.changes(), row.threads(), host, row.base()));
    }

    /**
     * Folds the oldest rows made before {@code before}, about {@code maxEntries} changes (at least one whole row), into
     * the job and log rows in one transaction; returns how many changes it folded (0: none due, or another node was
     * folding the same rows).
     */
    int fold(long before, int maxEntries) {
        // read outside the transaction: ledger rows never change, and the DELETE below tells whether they are still
        // ours, so a fold with nothing due (the compactor's idle look, on every node) is one query
        List<LedgerRow> due = guarded(() -> jdbc.query(
                COLUMNS + " WHERE base_time < ? ORDER BY seq LIMIT ?",
                DeliveryLedger::ledgerRow,
                before,
                FOLD_ROWS_MAX));
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
        int[] changed = transactions.inTransaction(status -> {
            // rows another node folds meanwhile are locked by its DELETE: ours then deletes fewer and backs off
            int taken = MultiRowInsert.update(
                    jdbc,
                    "DELETE FROM mykit_delay_queue_ledger WHERE seq IN (" + placeholders(seqs.size()) + ")",
                    new ArrayList<>(seqs));
            if (taken != seqs.size()) {
                status.setRollbackOnly();
                return null;
            }
            return transactions.runEach(jobTable.changeStatements(changes, hosts::get, kept));
        });
        if (changed == null) {
            return 0;
        }
        kept.report(changed, metrics);
        return changes.size();
    }

    /** Rows not yet folded. */
    int rows() {
        Integer rows =
                guarded(() -> jdbc.queryForObject("SELECT COUNT(*) FROM mykit_delay_queue_ledger", Integer.class));
        return rows == null ? 0 : rows;
    }

    /**
     * The unfolded entries of {@code ids} (null: of every job), by id, in ledger order: a few ids by LOCATE, more by
     * reading the ledger whole (folded down first when a burst left it large). Read it BEFORE the job rows it is
     * overlaid on: a fold between the two reads then shows in the rows, while read after them it would be in neither.
     */
    Map<String, List<LedgerRow.Entry>> unfolded(Collection<String> ids) {
        if (ids != null && ids.isEmpty()) {
            return Map.of();
        }
        List<LedgerRow> rows;
        if (ids != null && ids.size() <= POINT_IDS) {
            String where = String.join(" OR ", Collections.nCopies(ids.size(), "LOCATE(?, changes) > 0"));
            rows = jdbc.query(
                    COLUMNS + " WHERE " + where + " ORDER BY seq",
                    DeliveryLedger::ledgerRow,
                    ids.stream().map(LedgerRow::marker).toArray());
        } else {
            foldDown(OVERLAY_ROWS);
            rows = jdbc.query(COLUMNS + " ORDER BY seq", DeliveryLedger::ledgerRow);
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

    /**
     * Folds the ledger until at most {@code rowsLeft} rows are left or every row made before this call is folded: rows
     * appended meanwhile (other nodes, a busy state writer) are not chased, so the call ends under any load. A row
     * another node is folding gets {@link #FOLD_DOWN_WAITS} short waits to be committed.
     */
    void foldDown(int rowsLeft) {
        long started = System.currentTimeMillis();
        int waits = 0;
        while (rows() > rowsLeft) {
            if (fold(started, 5_000) > 0) {
                waits = 0;
            } else if (++waits > FOLD_DOWN_WAITS) {
                return;
            } else {
                sleepBriefly();
            }
        }
    }

    /** Whether an ended entry (Finish, Delete, Dead) of {@code jobId} waits in the ledger, not yet folded. */
    boolean holdsEnd(String jobId) {
        return !jdbc.queryForList(
                        "SELECT 1 FROM mykit_delay_queue_ledger WHERE LOCATE(?, changes) > 0"
                                + " OR LOCATE(?, changes) > 0 OR LOCATE(?, changes) > 0 LIMIT 1",
                        Integer.class,
                        LedgerRow.marker(jobId, JobStatus.Finish),
                        LedgerRow.marker(jobId, JobStatus.Delete),
                        LedgerRow.marker(jobId, JobStatus.Dead))
                .isEmpty();
    }

    private static LedgerRow ledgerRow(ResultSet rs, int n) throws SQLException {
        return new LedgerRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5));
    }

    private static String placeholders(int count) {
        return String.join(",", Collections.nCopies(count, "?"));
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("journal", "interrupted while folding the ledger", e);
        }
    }
}
