package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The retention purge's statements: jobs that ended for good and last changed before a cut-off, found and deleted with
 * their log rows. Each DELETE checks the job row again, so a row goes only while it is still purgeable.
 */
final class EndedJobsPurge {
    /** Ended for good: Dead is not among them, a dead letter waits in the journal for an operator's respawn or drop. */
    private static final String PURGEABLE =
            "status IN (" + JobStatus.Finish.code() + ", " + JobStatus.Delete.code() + ")";

    private static final String ENDED_BEFORE =
            "SELECT id FROM mykit_delay_queue_job WHERE " + PURGEABLE + " AND update_time < ? LIMIT ?";

    private final JdbcTemplate jdbc;

    EndedJobsPurge(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Up to {@code limit} ids of jobs that ended for good and last changed before {@code before}. */
    List<String> endedBefore(LocalDateTime before, int limit) {
        // the cut-off as text: a LocalDateTime parameter loses its milliseconds on MariaDB (MillisDateTimeTypeHandler)
        return jdbc.queryForList(ENDED_BEFORE, String.class, MultiRowInsert.text(before), limit);
    }

    /** Deletes up to {@code limit} log rows of those of {@code ids} (not empty) still purgeable; returns how many. */
    int deleteLogs(Collection<String> ids, LocalDateTime before, int limit) {
        // re-checked against the job row, so a log row goes only with a job that is still purgeable
        String sql = "DELETE FROM mykit_delay_queue_job_log WHERE id IN (" + MultiRowInsert.placeholders(ids.size())
                + ") AND EXISTS (SELECT 1 FROM mykit_delay_queue_job j WHERE j.id = mykit_delay_queue_job_log.id AND j."
                + PURGEABLE + " AND j.update_time < ?) LIMIT ?";
        List<Object> args = new ArrayList<>(ids);
        args.add(MultiRowInsert.text(before));
        args.add(limit);
        return MultiRowInsert.update(jdbc, sql, args);
    }

    /** Deletes the job rows of those of {@code ids} (not empty) still purgeable; returns how many. */
    int deleteJobs(Collection<String> ids, LocalDateTime before) {
        String sql = "DELETE FROM mykit_delay_queue_job WHERE id IN (" + MultiRowInsert.placeholders(ids.size())
                + ") AND " + PURGEABLE + " AND update_time < ?";
        List<Object> args = new ArrayList<>(ids);
        args.add(MultiRowInsert.text(before));
        return MultiRowInsert.update(jdbc, sql, args);
    }
}
