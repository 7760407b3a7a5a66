package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.support.TestServers;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * With {@code mykit.delay.journal.ledger} on, the state writer appends each flush as one packed ledger row and a fold
 * applies it to the job and log rows later (instead of a per-job UPDATE and log row at each drain). Until the fold,
 * every read of the gateway must overlay the ledger on the rows: a job finished in the ledger is ended for a lookup, a
 * cancel, a reschedule, a restore of one job or of all, and a restart on an empty Redis. The folds here are called by
 * hand (fold-after is an hour), so each check runs while the ledger alone knows the end.
 */
class DeliveryLedgerTest {
    private static final String HELD = "mykit.delay.journal.ledger-fold-after=1h";

    @Gateway({"mykit.delay.journal.ledger=true", HELD})
    private static TestGateway gateway;

    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start() {
        jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
    }

    @Test
    void a_job_finished_in_the_ledger_is_ended_for_every_read_before_its_fold_and_in_its_rows_after() throws Exception {
        String topic = "ledger-" + UUID.randomUUID().toString().substring(0, 8);
        String id = deliverAndFinish(gateway, topic);

        assertThat(rowStatus(jdbc, id)).as("the row waits for the fold").isEqualTo(JobStatus.Delay.code());
        assertThat(logStatuses(jdbc, id)).containsExactly(JobStatus.WaitPut.code());
        assertThat(ledgerRowsListing(jdbc, id)).isPositive();

        assertThat(gateway.client().lookup(id).data().path("status").asText()).isEqualTo("Finish");
        assertThat(gateway.journalStatuses(id))
                .as("history with the ledger's entries")
                .containsExactly(0, 2, 3);
        Reply cancel = gateway.client().delete(id);
        assertThat(cancel.status()).as("%s", cancel).isEqualTo(409);
        assertThat(cancel.json().path("message").asText()).contains("already ended: Finish");
        Reply reschedule = gateway.client().raw("PUT", "/jobs/" + id, "application/json", "{\"delay\":60000}");
        assertThat(reschedule.status()).as("%s", reschedule).isEqualTo(409);
        assertThat(gateway.client().get("/reStoreJob?jobId=" + id).status()).isEqualTo(409);
        Reply restore = gateway.client().get("/reStore?expire=true");
        assertThat(restore.status()).as("%s", restore).isEqualTo(200);
        assertThat(gateway.client().get(topic, 30_000, 1_500).data().isNull())
                .as("ended stays ended")
                .isTrue();
        assertThat(rowStatus(jdbc, id))
                .as("no write of the reads changed the row")
                .isEqualTo(JobStatus.Delay.code());

        foldAll(gateway.bean(Journal.class));
        assertThat(rowStatus(jdbc, id)).isEqualTo(JobStatus.Finish.code());
        assertThat(logStatuses(jdbc, id)).containsExactly(0, 2, 3);
        assertThat(ledgerRowsListing(jdbc, id)).isZero();
        assertThat(gateway.client().lookup(id).data().path("status").asText()).isEqualTo("Finish");
        assertThat(gateway.journalStatuses(id)).as("each change once").containsExactly(0, 2, 3);
    }

    @Test
    void two_folds_at_once_apply_each_change_once() throws Exception {
        Journal journal = gateway.bean(Journal.class);
        foldAll(journal);
        String prefix = "fold-race-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<String> ids = journalPending(journal, prefix, 60);
        for (int i = 0; i < ids.size(); i += 2) {
            long now = System.currentTimeMillis();
            journal.apply(List.of(
                    StateChange.of(ids.get(i), JobStatus.Ready, now),
                    StateChange.of(ids.get(i + 1), JobStatus.Ready, now),
                    StateChange.of(ids.get(i), JobStatus.Finish, now + 1),
                    StateChange.of(ids.get(i + 1), JobStatus.Finish, now + 1)));
        }
        assertThat(journal.ledgerRows()).isGreaterThanOrEqualTo(30);

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Callable<Integer> folder = () -> {
                int folded = 0;
                while (journal.ledgerRows() > 0) {
                    // a few rows at a time, so that the two folds meet on the same rows many times
                    folded += journal.foldLedger(Long.MAX_VALUE, 4);
                }
                return folded;
            };
            Future<Integer> first = pool.submit(folder);
            Future<Integer> second = pool.submit(folder);
            assertThat(first.get() + second.get()).as("changes folded by both").isEqualTo(ids.size() * 2);
        } finally {
            pool.shutdownNow();
        }
        for (String id : ids) {
            assertThat(logStatuses(jdbc, id)).as(id).containsExactly(0, 2, 3);
            assertThat(rowStatus(jdbc, id)).as(id).isEqualTo(JobStatus.Finish.code());
        }
    }

    /**
     * A late Finish in the ledger leaves a Dead or Delete end as it came first: folded after the end, folded with it
     * from another ledger row, in the end's own row, and over a Delete written to the row directly.
     */
    @Test
    void a_late_finish_in_the_ledger_does_not_overwrite_dead_or_delete() {
        Journal journal = gateway.bean(Journal.class);
        foldAll(journal);
        String prefix = "ledger-late-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<String> ids = journalPending(journal, prefix, 4);
        String dead = ids.get(0);
        String deadFoldedFirst = ids.get(1);
        String oneRow = ids.get(2);
        String deleted = ids.get(3);
        long now = System.currentTimeMillis();
        journal.apply(List.of(StateChange.of(deadFoldedFirst, JobStatus.Dead, now)));
        foldAll(journal);
        assertThat(rowStatus(jdbc, deadFoldedFirst)).as("folded alone").isEqualTo(JobStatus.Dead.code());
        assertThat(journal.markDeleted(deleted, false, "test", now)).isTrue();
        journal.apply(List.of(StateChange.of(dead, JobStatus.Dead, now)));
        journal.apply(List.of(
                StateChange.of(dead, JobStatus.Finish, now + 1),
                StateChange.of(deadFoldedFirst, JobStatus.Finish, now + 1),
                StateChange.of(deleted, JobStatus.Finish, now + 1)));
        journal.apply(List.of(
                StateChange.of(oneRow, JobStatus.Dead, now), StateChange.of(oneRow, JobStatus.Finish, now + 1)));

        assertThat(journal.findAll(ids))
                .as("overlaid on the rows before the fold")
                .extractingFromEntries(entry -> entry.getValue().status())
                .containsOnly(JobStatus.Dead, JobStatus.Delete);
        assertThat(journal.find(dead).orElseThrow().status()).isEqualTo(JobStatus.Dead);
        assertThat(journal.find(oneRow).orElseThrow().status()).isEqualTo(JobStatus.Dead);
        foldAll(journal);
        assertThat(List.of(
                        rowStatus(jdbc, dead),
                        rowStatus(jdbc, deadFoldedFirst),
                        rowStatus(jdbc, oneRow),
                        rowStatus(jdbc, deleted)))
                .as("rows after the fold")
                .containsExactly(
                        JobStatus.Dead.code(), JobStatus.Dead.code(), JobStatus.Dead.code(), JobStatus.Delete.code());
    }

    @Test
    void pending_pages_leave_out_jobs_ended_in_the_ledger_and_still_fill_up() {
        Journal journal = gateway.bean(Journal.class);
        String prefix = "zz-ledger-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<String> ids = journalPending(journal, prefix, 30);
        long now = System.currentTimeMillis();
        List<StateChange> finishes = new ArrayList<>();
        ids.subList(0, 25).forEach(id -> finishes.add(StateChange.of(id, JobStatus.Finish, now)));
        journal.apply(finishes);

        List<JournalEntry> page = journal.findPendingAfter(prefix, 10);
        assertThat(page)
                .extracting(entry -> entry.job().getId())
                .as("the 5 not ended, though 25 rows came first")
                .startsWith(ids.subList(25, 30).toArray(String[]::new));
        assertThat(journal.findAll(ids.subList(0, 12)).values())
                .extracting(JournalEntry::status)
                .containsOnly(JobStatus.Finish)
                .hasSize(12);
        foldAll(journal);
    }

    @Test
    void a_restart_on_an_empty_redis_does_not_bring_back_a_job_finished_in_the_ledger() throws Exception {
        String database;
        String id;
        String topic = "ledger-restart-" + UUID.randomUUID().toString().substring(0, 8);
        TestGateway first = TestGateway.start("mykit.delay.journal.ledger=true", HELD);
        try {
            database = first.database();
            id = deliverAndFinish(first, topic);
        } finally {
            first.stop();
        }
        TestServers.RedisEndpoint redis = TestServers.redis();
        // a new key prefix: Redis holds nothing of it, so the node restores every pending job of the journal at start
        try (TestGateway second = TestGateway.startOnOwnSettings(
                database,
                "mykit.delay.embedded.enabled=false",
                "mykit.delay.redis.host=" + redis.host(),
                "mykit.delay.redis.port=" + redis.port(),
                "spring.datasource.url=" + TestServers.jdbcUrl(database),
                "spring.datasource.username=" + TestServers.jdbcUser(),
                "spring.datasource.password=" + TestServers.jdbcPassword(),
                HELD)) {
            JdbcTemplate sql = new JdbcTemplate(second.bean(DataSource.class));
            assertThat(rowStatus(sql, id)).as("still unfolded").isEqualTo(JobStatus.Delay.code());
            assertThat(second.client().get(topic, 30_000, 4_000).data().isNull())
                    .as("ended stays ended")
                    .isTrue();
            assertThat(second.client().lookup(id).data().path("status").asText())
                    .isEqualTo("Finish");

            foldAll(second.bean(Journal.class));
            assertThat(rowStatus(sql, id))
                    .as("a node with the ledger off folds what is left")
                    .isEqualTo(JobStatus.Finish.code());
        }
    }

    @Test
    void the_ledger_works_on_the_embedded_h2_journal() throws Exception {
        String topic = "ledger-h2-" + UUID.randomUUID().toString().substring(0, 8);
        // the embedded journal's mode (EmbeddedStoresPostProcessor), in memory
        try (TestGateway h2 = TestGateway.start(
                "spring.datasource.url=jdbc:h2:mem:ledger-" + topic
                        + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa",
                "spring.datasource.password=",
                "mykit.delay.journal.ledger=true",
                HELD)) {
            JdbcTemplate sql = new JdbcTemplate(h2.bean(DataSource.class));
            assertThat(sql.execute((java.sql.Connection c) -> c.getMetaData().getURL()))
                    .startsWith("jdbc:h2:mem:");
            String id = deliverAndFinish(h2, topic);
            assertThat(rowStatus(sql, id)).isEqualTo(JobStatus.Delay.code());
            assertThat(h2.client().lookup(id).data().path("status").asText()).isEqualTo("Finish");
            assertThat(h2.client().delete(id).status()).isEqualTo(409);

            foldAll(h2.bean(Journal.class));
            assertThat(rowStatus(sql, id)).isEqualTo(JobStatus.Finish.code());
            assertThat(h2.journalStatuses(id)).containsExactly(0, 2, 3);
        }
    }

    /** Pushes a job due at once, pulls and finishes it, and waits for the state writer: the end is in the ledger. */
    private static String deliverAndFinish(TestGateway on, String topic) throws InterruptedException {
        String id = on.client()
                .push("{\"topic\":\"" + topic + "\",\"delay\":0}")
                .data()
                .asText();
        Reply pulled = on.client().get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText()).as("%s", pulled).isEqualTo(id);
        assertThat(on.client().finish(id).status()).isEqualTo(200);
        assertThat(on.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        return id;
    }

    /** Journals {@code count} jobs as a push does once Redis holds them: rows in Delay, no storing row. */
    private static List<String> journalPending(Journal journal, String prefix, int count) {
        long now = System.currentTimeMillis();
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(
                    new Job(prefix + String.format("%02d", i), "ledger-direct", null, null, 60_000, 0, 0, 0, "x", now));
        }
        journal.confirmGroups(List.of(journal.insertWaitPut(jobs, "test", now)));
        return jobs.stream().map(Job::getId).toList();
    }

    private static void foldAll(Journal journal) {
        while (journal.ledgerRows() > 0) {
            journal.foldLedger(Long.MAX_VALUE, 10_000);
        }
    }

    private static Integer rowStatus(JdbcTemplate sql, String id) {
        return sql.queryForObject("SELECT status FROM mykit_delay_queue_job WHERE id = ?", Integer.class, id);
    }

    private static List<Integer> logStatuses(JdbcTemplate sql, String id) {
        return sql.queryForList(
                "SELECT status FROM mykit_delay_queue_job_log WHERE id = ? ORDER BY log_id", Integer.class, id);
    }

    private static int ledgerRowsListing(JdbcTemplate sql, String id) {
        Integer rows = sql.queryForObject(
                "SELECT COUNT(*) FROM mykit_delay_queue_ledger WHERE LOCATE(?, changes) > 0",
                Integer.class,
                ";" + id + ",");
        return rows == null ? 0 : rows;
    }
}
