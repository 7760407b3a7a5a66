package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads jobs as the journal knows them: a job row with its unfolded ledger entries overlaid (unless the row ended, by
 * the fold's own rule), and a Delay row that a storing row still lists as WaitPut. The ledger is read before the job
 * rows and the storing rows after them ({@link DeliveryLedger#unfolded}, {@link #withStoring}).
 */
final class JournalReader {
    private final JobTable jobTable;
    private final DeliveryLedger ledger;
    private final StoringRows storing;

    JournalReader(JobTable jobTable, DeliveryLedger ledger, StoringRows storing) {
        this.jobTable = jobTable;
        this.ledger = ledger;
        this.storing = storing;
    }

    Optional<JournalEntry> find(String jobId) {
        List<LedgerRow.Entry> unfolded = ledger.unfolded(List.of(jobId)).get(jobId);
        JobRow row = jobTable.row(jobId);
        if (row == null) {
            return Optional.empty();
        }
        if (unfolded != null && !JobTable.status(row).isTerminal()) {
            return Optional.of(overlaid(row, unfolded));
        }
        boolean listed = JobTable.isDelay(row) && storing.lists(jobId);
        return Optional.of(listed ? waitPut(row) : entry(row));
    }

    /** {@link #find} of many jobs at once, without the storing rows: the entries of those that exist. */
    List<JournalEntry> findAll(Collection<String> jobIds) {
        Map<String, List<LedgerRow.Entry>> unfolded = ledger.unfolded(jobIds);
        return effective(jobTable.rows(jobIds), false, unfolded);
    }

    /**
     * Pages of {@code page} (keyset by id) as the journal knows them, with ended ones left out when
     * {@code pendingOnly}: pages are read until {@code limit} entries are found or the rows end, so a short answer
     * still means the end.
     */
    List<JournalEntry> pages(Function<String, List<JobRow>> page, String afterId, int limit, boolean pendingOnly) {
        List<JournalEntry> found = new ArrayList<>(limit);
        String after = afterId;
        while (found.size() < limit) {
            Map<String, List<LedgerRow.Entry>> unfolded = ledger.unfolded(null);
            List<JobRow> rows = page.apply(after);
            if (rows.isEmpty()) {
                break;
            }
            for (JournalEntry entry : effective(rows, true, unfolded)) {
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

    /** The job's log rows in write order, then its changes still in the ledger. */
    List<JobLogRow> history(String jobId) {
        List<LedgerRow.Entry> unfolded = ledger.unfolded(List.of(jobId)).getOrDefault(jobId, List.of());
        List<JobLogRow> rows = new ArrayList<>(jobTable.logOf(jobId));
        // changes still in the ledger come after every folded one; one folded between the two reads is there once
        Set<JobLogRow> folded = new HashSet<>(rows);
        for (LedgerRow.Entry entry : unfolded) {
            JobLogRow row = new JobLogRow(
                    jobId, entry.status().code(), entry.thread(), jobTable.toTime(entry.at()), entry.host());
            if (!folded.contains(row)) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** A row as it stands, without the ledger or the storing rows. */
    static JournalEntry entry(JobRow row) {
        return new JournalEntry(
                row.toJob(), JobStatus.ofCode(row.getStatus()).orElse(JobStatus.WaitPut), row.getUpdateTime());
    }

    /**
     * The entries of {@code rows}: the unfolded ledger entries {@code unfolded} (read before the rows) overlaid on each
     * row that has not ended, then (with {@code withStoring}) a Delay job listed in a storing row as WaitPut.
     */
    private List<JournalEntry> effective(
            List<JobRow> rows, boolean withStoring, Map<String, List<LedgerRow.Entry>> unfolded) {
        List<JobRow> plain = unfolded.isEmpty()
                ? rows
                : rows.stream()
                        .filter(row -> JobTable.status(row).isTerminal() || !unfolded.containsKey(row.getId()))
                        .toList();
        List<JournalEntry> plainEntries = withStoring
                ? withStoring(plain)
                : plain.stream().map(JournalReader::entry).toList();
        if (plain.size() == rows.size()) {
            return plainEntries;
        }
        Map<String, JournalEntry> byId = new HashMap<>();
        plainEntries.forEach(entry -> byId.put(entry.job().getId(), entry));
        List<JournalEntry> entries = new ArrayList<>(rows.size());
        for (JobRow row : rows) {
            JournalEntry plainEntry = byId.get(row.getId());
            entries.add(plainEntry != null ? plainEntry : overlaid(row, unfolded.get(row.getId())));
        }
        return entries;
    }

    /**
     * Entries of {@code rows}, those listed in a storing row as WaitPut. The storing rows are read after the job rows:
     * a group committed its rows together, and its storing row goes only once Redis holds the group, so a job read as
     * Delay here was added to Redis before this call read the storing table.
     */
    private List<JournalEntry> withStoring(List<JobRow> rows) {
        if (rows.stream().noneMatch(JobTable::isDelay)) {
            return rows.stream().map(JournalReader::entry).toList();
        }
        Set<String> listed = storing.listedIds();
        return rows.stream()
                .map(row -> JobTable.isDelay(row) && listed.contains(row.getId()) ? waitPut(row) : entry(row))
                .toList();
    }

    private JournalEntry overlaid(JobRow row, List<LedgerRow.Entry> unfolded) {
        return new JournalEntry(
                row.toJob(),
                LedgerRow.overlay(JobTable.status(row), unfolded),
                jobTable.toTime(unfolded.get(unfolded.size() - 1).at()));
    }

    private static JournalEntry waitPut(JobRow row) {
        return new JournalEntry(row.toJob(), JobStatus.WaitPut, row.getUpdateTime());
    }
}
