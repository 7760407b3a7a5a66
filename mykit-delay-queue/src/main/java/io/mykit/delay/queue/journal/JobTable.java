package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The job rows and their log ({@code mykit_delay_queue_job}, {@code mykit_delay_queue_job_log}): the statements that
 * insert and change job rows, each with its log rows, and the lookups by row. A job's first end (Finish, Delete, Dead)
 * stays: every status change here leaves an ended row as it is, except {@link #transition}, which moves the rows of one
 * named status (an operator's respawn or drop of dead letters).
 */
final class JobTable {
    static final List<Integer> TERMINAL =
            List.of(JobStatus.Finish.code(), JobStatus.Delete.code(), JobStatus.Dead.code());
    private static final List<Integer> TERMINAL_OR_WAIT_PUT =
            List.of(JobStatus.Finish.code(), JobStatus.Delete.code(), JobStatus.Dead.code(), JobStatus.WaitPut.code());

    private static final MultiRowInsert<JobRow> JOB_INSERT = new MultiRowInsert<>(
            "INSERT IGNORE INTO mykit_delay_queue_job (id, bizkey, topic, subtopic, delay, priority, ttl, tries,"
                    + " attempts, create_time, due_time, body, status, update_time)",
            14,
            r -> new Object[] {
                r.getId(),
                r.getBizKey(),
                r.getTopic(),
                r.getSubtopic(),
                r.getDelay(),
                r.getPriority(),
                r.getTtl(),
                r.getTries(),
                r.getAttempts(),
                r.getCreateTime(),
                r.getDueTime(),
                r.getBody(),
                r.getStatus(),
                r.getUpdateTime()
            });
    private static final MultiRowInsert<JobLogRow> LOG_INSERT = new MultiRowInsert<>(
            "INSERT INTO mykit_delay_queue_job_log (id, status, thread, update_time, host)", 5, r ->
                    new Object[] {r.id(), r.status(), r.thread(), r.updateTime(), r.host()});
    /**
     * Delete unless ended, WaitPut, or listed in a storing row: a job its push may still add to Redis is not cancelled.
     */
    private static final String DELETE_UNLESS_STORING = "UPDATE mykit_delay_queue_job SET status = ?, update_time = ?"
            + " WHERE id = ? AND status NOT IN ("
            + TERMINAL_OR_WAIT_PUT.stream().map(String::valueOf).collect(Collectors.joining(",")) + ")"
            + " AND NOT EXISTS (SELECT 1 FROM mykit_delay_queue_storing s WHERE LOCATE(?, s.ids) > 0)";

    private static final String RESCHEDULE = "UPDATE mykit_delay_queue_job SET create_time = ?, delay = ?,"
            + " due_time = ?, body = ?, update_time = ? WHERE id = ? AND status NOT IN (?, ?, ?)";
    private static final LocalDateTime FIRST_TIME = LocalDateTime.of(1000, 1, 1, 0, 0);
    private static final StatusUpdate STATUS_UPDATE = new StatusUpdate();

    private final JobMapper jobs;
    private final JobLogMapper logs;
    private final JdbcTemplate jdbc;
    private final String host;
    private final ZoneId zone = ZoneId.systemDefault();

    JobTable(JobMapper jobs, JobLogMapper logs, JdbcTemplate jdbc, String host) {
        this.jobs = jobs;
        this.logs = logs;
        this.jdbc = jdbc;
        this.host = host;
    }

    /** The INSERTs, not yet sent, of a push group's job rows (Delay, a repeated id ignored) and WaitPut log rows. */
    List<MultiRowInsert.Sql> insertStatements(List<Job> batch, String thread, LocalDateTime time) {
        List<JobRow> rows = new ArrayList<>(batch.size());
        List<JobLogRow> logRows = new ArrayList<>(batch.size());
        for (Job job : batch) {
            rows.add(JobRow.of(job, JobStatus.Delay.code(), time));
            logRows.add(new JobLogRow(job.getId(), JobStatus.WaitPut.code(), thread, time, host));
        }
        return List.of(JOB_INSERT.statement(rows), LOG_INSERT.statement(logRows));
    }

    /**
     * The status UPDATEs (one per target status, the decisive change per job, an ended row never changed again) and the
     * log INSERT that journal {@code changes} in their rows; {@code hostOf} names the node of the change at an index.
     * {@code kept} learns which ends they may leave out (the log keeps a row of each).
     */
    List<MultiRowInsert.Sql> changeStatements(List<StateChange> changes, IntFunction<String> hostOf, KeptEnds kept) {
        List<MultiRowInsert.Sql> statements = new ArrayList<>();
        if (changes.isEmpty()) {
            return statements;
        }
        Map<StateChange, List<String>> idsByKind = new LinkedHashMap<>();
        long latest = 0;
        Collection<StateChange> finals = StateChange.finalPerJob(changes);
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
            logRows.add(new JobLogRow(
                    c.jobId(), c.status().code(), abbreviate(c.thread()), toTime(c.at()), hostOf.apply(i)));
        }
        idsByKind.forEach((kind, ids) -> {
            if (kind.status().isTerminal()) {
                kept.guarded(statements.size(), kind.status(), ids.size());
            }
            // an ended job stays as it ended: neither a late Ready (flushed after a Delete) nor a late end (a broker's
            // Finish after the burial's Dead, a dropped dead letter's send confirmed) changes it; only a respawn does
            statements.add(STATUS_UPDATE.statement(
                    ids,
                    kind.status().code(),
                    updateTime,
                    kind.onlyFromWaitPut() ? JobStatus.WaitPut.code() : null,
                    TERMINAL));
        });
        statements.add(LOG_INSERT.statement(logRows));
        return statements;
    }

    private static Map<String, Integer> zeroes(List<String> ids) {
        Map<String, Integer> zero = new LinkedHashMap<>();
        ids.forEach(id -> zero.put(id, 0));
        return zero;
    }

    /** The UPDATE that writes buried jobs' tries used, by id: one statement for them all. */
    static MultiRowInsert.Sql attemptsStatement(Map<String, Integer> attempts) {
        StringBuilder sql = new StringBuilder("UPDATE mykit_delay_queue_job SET attempts = CASE id");
        List<Object> args = new ArrayList<>(attempts.size() * 3);
        attempts.forEach((id, tries) -> {
            sql.append(" WHEN ? THEN ?");
            args.add(id);
            args.add(tries);
        });
        sql.append(" END WHERE id IN (")
                .append(String.join(",", Collections.nCopies(attempts.size(), "?")))
                .append(')');
        args.addAll(attempts.keySet());
        return new MultiRowInsert.Sql(sql.toString(), args);
    }

    /** {@link #changeStatements} of changes all made on this node. */
    List<MultiRowInsert.Sql> changeStatements(List<StateChange> changes, KeptEnds kept) {
        return changeStatements(changes, i -> host, kept);
    }

    /** Appends log rows only, in one statement (atomic without a transaction around it). */
    void log(List<StateChange> events) {
        List<JobLogRow> rows = events.stream()
                .map(c -> logRow(c.jobId(), c.status(), c.thread(), toTime(c.at())))
                .toList();
        LOG_INSERT.insert(jdbc, rows);
    }

    /**
     * In the caller's transaction: marks a job deleted unless it ended (or, with {@code unlessWaitPut}, is WaitPut or
     * listed in a storing row), with its log row; true when the row changed.
     */
    boolean markDeleted(String jobId, boolean unlessWaitPut, String thread, LocalDateTime time) {
        int changed = unlessWaitPut
                ? jdbc.update(
                        DELETE_UNLESS_STORING,
                        JobStatus.Delete.code(),
                        MultiRowInsert.text(time),
                        jobId,
                        StoringRows.listed(jobId))
                : STATUS_UPDATE.update(jdbc, List.of(jobId), JobStatus.Delete.code(), time, null, TERMINAL);
        if (changed > 0) {
            LOG_INSERT.insert(jdbc, List.of(logRow(jobId, JobStatus.Delete, thread, time)));
        }
        return changed > 0;
    }

    /** In the caller's transaction: a pending job's new schedule and body, logged as Delay; false if it ended. */
    boolean reschedule(Job job, String thread, LocalDateTime time) {
        int changed = jdbc.update(
                RESCHEDULE,
                job.getCreateTime(),
                job.getDelay(),
                job.dueTime(),
                job.getBody(),
                time,
                job.getId(),
                TERMINAL.get(0),
                TERMINAL.get(1),
                TERMINAL.get(2));
        if (changed > 0) {
            LOG_INSERT.insert(jdbc, List.of(logRow(job.getId(), JobStatus.Delay, thread, time)));
        }
        return changed > 0;
    }

    /** In the caller's transaction: moves those of {@code ids} in {@code from} to {@code to}, with log rows. */
    List<String> transition(Collection<String> ids, JobStatus from, JobStatus to, String thread, LocalDateTime time) {
        List<String> moving = jobs.selectBatchIds(ids).stream()
                .filter(row -> row.getStatus() != null && row.getStatus() == from.code())
                .map(JobRow::getId)
                .toList();
        if (!moving.isEmpty()) {
            STATUS_UPDATE.update(jdbc, moving, to.code(), time, from.code(), null);
            if (from == JobStatus.Dead && to == JobStatus.WaitPut) {
                // a respawned job starts its tries afresh: a restore must not hand it the ones it died with
                MultiRowInsert.Sql reset = attemptsStatement(zeroes(moving));
                MultiRowInsert.update(jdbc, reset.text(), reset.args());
            }
            LOG_INSERT.insert(
                    jdbc,
                    moving.stream().map(id -> logRow(id, to, thread, time)).toList());
        }
        return moving;
    }

    /** Which of {@code ids} have a row; waits for a push still inserting one of them (a locking read). */
    Set<String> existingIds(Collection<String> ids) {
        return new HashSet<>(jobs.findExistingIds(ids));
    }

    /** The row of {@code jobId}, or null. */
    JobRow row(String jobId) {
        return jobs.selectById(jobId);
    }

    List<JobRow> rows(Collection<String> jobIds) {
        return jobs.selectBatchIds(jobIds);
    }

    /** Rows not yet ended, keyset-paged by id. */
    List<JobRow> pendingAfter(String afterId, int limit) {
        return jobs.findPendingAfter(afterId, limit);
    }

    List<JobRow> byBizKey(String bizKey, String topic, boolean pendingOnly, String afterId, int limit) {
        return jobs.findByBizKey(bizKey, topic, pendingOnly, afterId, limit);
    }

    /** Rows of a bizKey in the topics some of {@code topics} match, keyset-paged by id; none when they match none. */
    List<JobRow> byBizKeyInTopics(String bizKey, TopicConditions topics, String afterId, int limit) {
        return topics.none()
                ? List.of()
                : jobs.findByBizKeyInTopics(bizKey, topics.exact(), topics.like(), afterId, limit);
    }

    /** Rows in {@code status} last changed before {@code before}, oldest first, after {@code after} (null: first). */
    List<JobRow> inStatusBefore(JobStatus status, long before, JournalEntry after, int limit) {
        // the first page starts after the earliest time a DATETIME holds
        LocalDateTime afterTime = after == null ? FIRST_TIME : after.updateTime();
        String afterId = after == null ? "" : after.job().getId();
        return jobs.findInStatusBefore(status.code(), toTime(before), afterTime, afterId, limit);
    }

    List<Job> byTopicAndStatus(String topic, JobStatus status, String afterId, Collection<String> onlyIds, int limit) {
        return jobs
                .findByTopicAndStatus(
                        topic, status.code(), afterId, onlyIds == null || onlyIds.isEmpty() ? null : onlyIds, limit)
                .stream()
                .map(JobRow::toJob)
                .toList();
    }

    /** The log rows of {@code jobId}, in write order. */
    List<JobLogRow> logOf(String jobId) {
        return logs.findById(jobId);
    }

    /** A time in milliseconds as the tables hold it: this JVM's local date and time. */
    LocalDateTime toTime(long millis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone);
    }

    private JobLogRow logRow(String jobId, JobStatus status, String thread, LocalDateTime time) {
        return new JobLogRow(jobId, status.code(), abbreviate(thread), time, host);
    }

    /** A thread name as the log table's column holds it. */
    static String abbreviate(String thread) {
        return thread.length() <= 60 ? thread : thread.substring(0, 60);
    }

    /** The status a row holds (WaitPut for none or an unknown code). */
    static JobStatus status(JobRow row) {
        return row.getStatus() == null
                ? JobStatus.WaitPut
                : JobStatus.ofCode(row.getStatus()).orElse(JobStatus.WaitPut);
    }

    static boolean isDelay(JobRow row) {
        return row.getStatus() != null && row.getStatus() == JobStatus.Delay.code();
    }
}
