package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalPurger;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * mykit.delay.journal.retention: ended jobs (Finish, Delete) last changed before the cut-off go with their log rows, in
 * statements of at most the batch size; pending, in-flight, dead and recent jobs stay, whatever their age.
 */
class JournalRetentionTest {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final List<JobStatus> NEVER_PURGED = List.of(
            JobStatus.WaitPut,
            JobStatus.Delay,
            JobStatus.Ready,
            JobStatus.Restore,
            JobStatus.ConsumerFailRestore,
            JobStatus.Dead);

    /** This test's gateway, for the helpers below. */
    private TestGateway gateway;

    @Test
    void purge_deletes_exactly_the_old_ended_jobs_and_their_logs_batch_by_batch(
            // retention 0: the gateway's own purge is off, so only the purge below deletes anything
            @Gateway({"mykit.delay.journal.retention=0", "mykit.delay.journal.purge-interval=200ms"})
                    TestGateway gateway)
            throws Exception {
        this.gateway = gateway;
        LocalDateTime now = LocalDateTime.now();
        List<String> oldFinished = insert(60, JobStatus.Finish, now.minusDays(3), 3);
        List<String> oldDeleted = insert(25, JobStatus.Delete, now.minusDays(3), 2);
        List<String> keep = new ArrayList<>();
        for (JobStatus status : NEVER_PURGED) {
            keep.addAll(insert(4, status, now.minusDays(30), 2));
        }
        keep.addAll(insert(10, JobStatus.Finish, now.minusHours(1), 3));
        // just inside the retention: a minute younger than the cut-off
        keep.addAll(insert(3, JobStatus.Delete, now.minusDays(1).plusMinutes(1), 2));

        Thread.sleep(1_000); // several purge intervals: with retention 0 the gateway deletes nothing
        assertThat(countJobs(oldFinished)).as("retention 0 keeps everything").isEqualTo(60);

        List<String> statements = new CopyOnWriteArrayList<>();
        JournalPurger purger = new JournalPurger(
                gateway.bean(Journal.class),
                Clock.systemDefaultZone(),
                Duration.ofDays(1).toMillis(),
                40,
                0,
                60_000,
                () -> true,
                (table, rows) -> statements.add(table + "=" + rows));
        assertThat(purger.purgeOnce(() -> true)).isEqualTo(85);

        List<String> ended = new ArrayList<>(oldFinished);
        ended.addAll(oldDeleted);
        assertThat(countJobs(ended)).isZero();
        assertThat(countLogs(ended)).isZero();
        assertThat(countJobs(keep)).isEqualTo(keep.size());
        assertThat(countLogs(keep))
                .as("log rows of kept jobs stay")
                .isEqualTo(4 * NEVER_PURGED.size() * 2 + 10 * 3 + 3 * 2);

        List<Integer> jobStatements = rows(statements, JournalPurger.JOB_TABLE);
        List<Integer> logStatements = rows(statements, JournalPurger.LOG_TABLE);
        assertThat(jobStatements).as("job rows in batches of 40").containsExactly(40, 40, 5);
        assertThat(logStatements).as("no log statement over 40 rows").allMatch(n -> n <= 40);
        assertThat(logStatements.stream().mapToInt(Integer::intValue).sum()).isEqualTo(60 * 3 + 25 * 2);
        assertThat(purger.purgeOnce(() -> true)).as("nothing left to purge").isZero();
    }

    @Test
    void the_gateway_purges_in_the_background_and_keeps_pending_dead_and_recent_jobs(
            @Gateway({
                        "mykit.delay.journal.retention=2d",
                        "mykit.delay.journal.purge-batch-size=20",
                        "mykit.delay.journal.purge-pause=10ms",
                        "mykit.delay.journal.purge-interval=300ms"
                    })
                    TestGateway gateway)
            throws Exception {
        this.gateway = gateway;
        LocalDateTime now = LocalDateTime.now();
        List<String> old = insert(70, JobStatus.Finish, now.minusDays(10), 3);
        List<String> keep = new ArrayList<>(insert(5, JobStatus.Dead, now.minusDays(10), 2));
        keep.addAll(insert(5, JobStatus.Delay, now.minusDays(10), 2));
        keep.addAll(insert(5, JobStatus.Finish, now.minusDays(1), 3));

        await().atMost(Duration.ofSeconds(30)).until(() -> countJobs(old) == 0);
        assertThat(countLogs(old)).isZero();
        assertThat(countJobs(keep)).isEqualTo(15);
        assertThat(countLogs(keep)).isEqualTo(5 * 2 + 5 * 2 + 5 * 3);
        // the metric counts what went: 70 job rows and their 210 log rows
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Scrape.of(gateway.baseUrl()).sum("mykit_delay_journal_purged_total") == 70 + 70 * 3);
    }

    private static List<Integer> rows(List<String> statements, String table) {
        return statements.stream()
                .filter(s -> s.startsWith(table + "="))
                .map(s -> Integer.parseInt(s.substring(table.length() + 1)))
                .toList();
    }

    /** Job rows last changed at {@code at}, each with {@code logs} log rows, written straight into the journal. */
    private List<String> insert(int count, JobStatus status, LocalDateTime at, int logs) throws SQLException {
        List<String> ids = new ArrayList<>();
        String topic = "ret-" + UUID.randomUUID().toString().substring(0, 8);
        // far in the future: a WaitPut row the repairer stores must not fall due and change during the test
        long due = System.currentTimeMillis() + Duration.ofDays(300).toMillis();
        try (Connection db = connect();
                PreparedStatement job =
                        db.prepareStatement("INSERT INTO mykit_delay_queue_job (id, topic, delay, create_time,"
                                + " due_time, body, status, update_time, tries) VALUES (?, ?, ?, ?, ?, 'x', ?, ?, 3)");
                PreparedStatement log = db.prepareStatement("INSERT INTO mykit_delay_queue_job_log (id, status, thread,"
                        + " update_time, host) VALUES (?, ?, 'test', ?, 'test')")) {
            for (int i = 0; i < count; i++) {
                String id = topic + "-" + i;
                ids.add(id);
                job.setString(1, id);
                job.setString(2, topic);
                job.setLong(3, due - System.currentTimeMillis());
                job.setLong(4, System.currentTimeMillis());
                job.setLong(5, due);
                job.setInt(6, status.code());
                job.setString(7, MILLIS.format(at));
                job.addBatch();
                for (int l = 0; l < logs; l++) {
                    log.setString(1, id);
                    log.setInt(2, status.code());
                    log.setString(3, MILLIS.format(at.minusSeconds(logs - l)));
                    log.addBatch();
                }
            }
            job.executeBatch();
            log.executeBatch();
        }
        return ids;
    }

    private long countJobs(List<String> ids) throws SQLException {
        return count("mykit_delay_queue_job", ids);
    }

    private long countLogs(List<String> ids) throws SQLException {
        return count("mykit_delay_queue_job_log", ids);
    }

    private long count(String table, List<String> ids) throws SQLException {
        try (Connection db = connect();
                PreparedStatement query = db.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE id IN ("
                        + String.join(",", Collections.nCopies(ids.size(), "?")) + ")")) {
            for (int i = 0; i < ids.size(); i++) {
                query.setString(i + 1, ids.get(i));
            }
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(
                TestServers.jdbcUrl(gateway.database()), TestServers.jdbcUser(), TestServers.jdbcPassword());
    }
}
