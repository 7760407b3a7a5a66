package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row of the delivery ledger ({@code mykit_delay_queue_ledger}): a state-change flush packed into text, so a flush
 * of a thousand deliveries is one INSERT instead of a thousand row UPDATEs and log rows.
 *
 * <pre>
 * changes  ;id,status,atOffsetMs,threadIndex;id,status,...;     (ids hold neither ';' nor ',': JobValidator)
 * threads  name0\nname1...                                       (each flush names its threads once)
 * base     the first change's time; offsets are from it
 * </pre>
 *
 * {@code LOCATE(';<id>,', changes)} finds a job's entries; {@code ';<id>,<code>,'} one status of it.
 */
record LedgerRow(long seq, String changes, String threads, String host, long base) {

    /** One change read back from a row. */
    record Entry(String jobId, JobStatus status, long at, String thread, String host) {}

    /** The row for {@code changes} (not empty, none of them a guarded or group change); seq is the database's. */
    static LedgerRow pack(List<StateChange> changes, String host) {
        long base = changes.get(0).at();
        Map<String, Integer> threadIndex = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder(changes.size() * 40).append(';');
        for (StateChange change : changes) {
            int thread = threadIndex.computeIfAbsent(oneLine(change.thread()), name -> threadIndex.size());
            text.append(change.jobId())
                    .append(',')
                    .append(change.status().code())
                    .append(',')
                    .append(change.at() - base)
                    .append(',')
                    .append(thread)
                    .append(';');
        }
        return new LedgerRow(0, text.toString(), String.join("\n", threadIndex.keySet()), host, base);
    }

    /** The entries, in the order they were made. */
    List<Entry> entries() {
        String[] names = threads.isEmpty() ? new String[] {""} : threads.split("\n", -1);
        List<Entry> entries = new ArrayList<>();
        int start = 1;
        for (int end = changes.indexOf(';', start); end > 0; end = changes.indexOf(';', start)) {
            int c1 = changes.indexOf(',', start);
            int c2 = changes.indexOf(',', c1 + 1);
            int c3 = changes.indexOf(',', c2 + 1);
            JobStatus status = JobStatus.ofCode(Integer.parseInt(changes, c1 + 1, c2, 10))
                    .orElseThrow(() -> new IllegalStateException("ledger row " + seq + ": unknown status"));
            long at = base + Long.parseLong(changes, c2 + 1, c3, 10);
            String thread = names[Integer.parseInt(changes, c3 + 1, end, 10)];
            entries.add(new Entry(changes.substring(start, c1), status, at, thread, host));
            start = end + 1;
        }
        return entries;
    }

    /** The text that starts each entry of {@code jobId}. */
    static String marker(String jobId) {
        return ";" + jobId + ",";
    }

    /** The text of an entry of {@code jobId} in {@code status}. */
    static String marker(String jobId, JobStatus status) {
        return ";" + jobId + "," + status.code() + ",";
    }

    /**
     * A job's status once its unfolded entries (in ledger order) are overlaid on its row's: as the fold's UPDATEs would
     * leave it, the first ended status is never replaced by a later one.
     */
    static JobStatus overlay(JobStatus row, List<Entry> entries) {
        JobStatus status = row;
        for (Entry entry : entries) {
            if (!status.isTerminal()) {
                status = entry.status();
            }
        }
        return status;
    }

    private static String oneLine(String thread) {
        String name = JobTable.abbreviate(thread);
        return name.indexOf('\n') < 0 ? name : name.replace('\n', ' ');
    }
}
