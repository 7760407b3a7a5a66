package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A push journals its jobs in Delay with one storing row per group, deleted once Redis holds them (no status UPDATE and
 * second log row per job). While the storing row is there the jobs count as WaitPut: a crash between the commit and the
 * Redis add leaves exactly that state, and neither a cancel nor a restore may act on it, since the push may still add
 * the job; the stranded-job repairer stores it after repair-after.
 */
class StoringRowTest {
    private static final int REPAIR_AFTER_SECONDS = 4;
    private static final Duration REPAIR_AFTER = Duration.ofSeconds(REPAIR_AFTER_SECONDS);

    @Gateway("mykit.delay.journal.repair-after=" + REPAIR_AFTER_SECONDS + "s")
    private static TestGateway gateway;

    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start() {
        jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
    }

    @Test
    void a_stored_push_leaves_a_delay_row_one_log_row_and_no_storing_row() throws Exception {
        String topic = "storing-" + UUID.randomUUID().toString().substring(0, 8);
        String id = gateway.client()
                .push("{\"topic\":\"" + topic + "\",\"delay\":60000}")
                .data()
                .asText();

        assertThat(gateway.journalStatuses(id))
                .as("log rows: the push's WaitPut only")
                .containsExactly(0);
        assertThat(jdbc.queryForObject("SELECT status FROM mykit_delay_queue_job WHERE id = ?", Integer.class, id))
                .isEqualTo(1);
        assertThat(storingRowsListing(id))
                .as("storing rows once Redis holds it")
                .isZero();
        assertThat(gateway.client().lookup(id).data().path("status").asText()).isEqualTo("Delay");
        assertThat(gateway.client().delete(id).status())
                .as("a stored job is cancelled")
                .isEqualTo(200);
    }

    @Test
    void a_group_committed_but_not_added_is_left_to_its_push_until_the_repairer_stores_it() throws Exception {
        String topic = "storing-crash-" + UUID.randomUUID().toString().substring(0, 8);
        String id = "storing-crash-" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        // what a crash between a push group's commit and its Redis add leaves
        String group = gateway.bean(Journal.class)
                .insertWaitPut(List.of(new Job(id, topic, null, null, 0, 0, 0, 0, "crash", now)), "test-crash", now);
        assertThat(group).isNotNull();
        assertThat(storingRowsListing(id)).isEqualTo(1);

        assertThat(gateway.client().lookup(id).data().path("status").asText()).isEqualTo("WaitPut");
        Reply cancel = gateway.client().delete(id);
        assertThat(cancel.status()).as("its push may still add it: %s", cancel).isEqualTo(409);
        assertThat(cancel.json().path("message").asText()).contains("being stored");
        Reply restoreJob = gateway.client().get("/reStoreJob?jobId=" + id);
        assertThat(restoreJob.status()).as(restoreJob.toString()).isEqualTo(409);
        Reply restore = gateway.client().get("/reStore?expire=true");
        assertThat(restore.status()).as(restore.toString()).isEqualTo(200);
        assertThat(restore.data().path("leftToPush").asLong())
                .as(restore.toString())
                .isGreaterThanOrEqualTo(1);
        assertThat(gateway.client().get(topic, 30_000, 0).data().isNull())
                .as("not in Redis yet")
                .isTrue();
        assertThat(System.currentTimeMillis() - now)
                .as("checked before the repairer's turn")
                .isLessThan(REPAIR_AFTER.toMillis());

        Reply pulled = gateway.client().get(topic, 30_000, 15_000);
        assertThat(pulled.data().path("id").asText())
                .as("stored by the repairer: %s", pulled)
                .isEqualTo(id);
        assertThat(storingRowsListing(id))
                .as("the repairer deletes the storing row")
                .isZero();
        assertThat(gateway.client().finish(id).status()).isEqualTo(200);
        assertThat(gateway.client().get(topic, 30_000, 1_500).data().isNull())
                .as("delivered once")
                .isTrue();
        assertThat(gateway.journalStatuses(id)).containsExactly(0, 2, 3);
    }

    @Test
    void a_job_of_a_storing_row_that_ended_is_not_stored_again_by_the_repairer() throws Exception {
        String topic = "storing-ended-" + UUID.randomUUID().toString().substring(0, 8);
        String id = "storing-ended-" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        // the push added it and it was delivered and finished, but its storing row's deletion never reached the
        // journal (the node died with it queued)
        gateway.bean(Journal.class)
                .insertWaitPut(
                        List.of(new Job(id, topic, null, null, 0, 0, 0, 0, "x", now)),
                        "test-crash",
                        now - REPAIR_AFTER.toMillis() * 3);
        jdbc.update("UPDATE mykit_delay_queue_job SET status = 3 WHERE id = ?", id);

        await().atMost(Duration.ofSeconds(20)).until(() -> storingRowsListing(id) == 0);
        assertThat(gateway.client().get(topic, 30_000, 1_000).data().isNull())
                .as("ended stays ended")
                .isTrue();
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        assertThat(jdbc.queryForObject("SELECT status FROM mykit_delay_queue_job WHERE id = ?", Integer.class, id))
                .isEqualTo(3);
    }

    private static int storingRowsListing(String id) throws InterruptedException {
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000))
                .as("state changes written")
                .isTrue();
        Integer rows = jdbc.queryForObject(
                "SELECT COUNT(*) FROM mykit_delay_queue_storing WHERE ids LIKE ?", Integer.class, "%," + id + ",%");
        return rows == null ? 0 : rows;
    }
}
