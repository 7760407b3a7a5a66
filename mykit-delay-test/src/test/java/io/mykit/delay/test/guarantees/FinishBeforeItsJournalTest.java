package io.mykit.delay.test.guarantees;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.service.Finishing;
import io.mykit.delay.queue.service.JobValidator;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A pull finish is answered 200 once Redis let go of the job, before the state writer journals its Finish. A node
 * killed in between takes the queued Finish with it, and the journal still reads the job as pending: a restore after
 * that (an operator's /reStore, the automatic one) must not bring the job back, and the Finish must reach the journal
 * all the same. The window is walked with the gateway's real Redis and MariaDB: the finish runs through a service whose
 * state writer never writes, as a killed node's would not.
 */
class FinishBeforeItsJournalTest {
    @Gateway("mykit.delay.journal.repair-after=1s")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    @Test
    void a_finish_its_node_never_journaled_is_not_restored_and_is_journaled_by_the_repair() throws Exception {
        String topic = PullPath.topic("unjournaled");
        String single = reservedJob(topic);
        String batched = reservedJob(topic);
        StateChangeWriter killed = new StateChangeWriter(gateway.bean(Journal.class), 1000, 50);
        Finishing dying = finishingWriting(killed);

        dying.finish(single);
        assertThat(dying.finishAll(List.of(batched)).finished()).containsExactly(batched);
        assertThat(killed.backlog())
                .as("Finish changes the killed node never wrote")
                .isEqualTo(2);
        assertThat(client.lookup(single).data().path("status").asText())
                .as("the journal still reads")
                .isEqualTo("Ready");

        gateway.bean(RecoveryService.class).restore(true);
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        assertThat(store.peek(single)).as("finished job after a restore").isEmpty();
        assertThat(store.peek(batched)).as("batch-finished job after a restore").isEmpty();
        assertThat(client.get(topic, 30_000, 1_000).data().isNull())
                .as("delivered again after its finish")
                .isTrue();

        // the repair finds the marks older than repair-after whose rows still read pending, and journals them
        PullPath.awaitStatus(client, single, JobStatus.Finish);
        PullPath.awaitStatus(client, batched, JobStatus.Finish);
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            var marks = store.finishMarksBefore(Long.MAX_VALUE, 1000);
            return !marks.containsKey(single) && !marks.containsKey(batched);
        });
        gateway.bean(RecoveryService.class).restore(true);
        assertThat(store.peek(single)).as("finished job after a second restore").isEmpty();
    }

    @Test
    void a_finish_judged_by_the_journal_because_redis_lost_the_job_is_not_restored_either() throws Exception {
        String topic = PullPath.topic("lost");
        String id = reservedJob(topic);
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        // what a Redis that lost the job leaves: neither the job nor a mark
        store.finish(id, System.currentTimeMillis());
        store.forgetFinishMarks(List.of(id));
        StateChangeWriter killed = new StateChangeWriter(gateway.bean(Journal.class), 1000, 50);

        finishingWriting(killed).finish(id);
        assertThat(killed.backlog())
                .as("Finish changes the killed node never wrote")
                .isEqualTo(1);

        gateway.bean(RecoveryService.class).restore(true);
        assertThat(store.peek(id)).as("finished job after a restore").isEmpty();
        PullPath.awaitStatus(client, id, JobStatus.Finish);
    }

    @Test
    void a_finish_the_writer_journals_leaves_no_mark() {
        String topic = PullPath.topic("journaled");
        String id = reservedJob(topic);
        assertThat(client.finish(id).status()).isEqualTo(200);
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        PullPath.awaitStatus(client, id, JobStatus.Finish);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !store.finishMarksBefore(Long.MAX_VALUE, 1000).containsKey(id));
    }

    /** A job pushed due at once and reserved by a puller, its Ready journaled. */
    private static String reservedJob(String topic) {
        String id = PullPath.push(client, topic, ",\"delay\":0");
        assertThat(PullPath.reserve(client, topic, 30_000).path("id").asText()).isEqualTo(id);
        PullPath.awaitStatus(client, id, JobStatus.Ready);
        return id;
    }

    /** The gateway's own finishes on the same stores, their state changes going to {@code states}. */
    private static Finishing finishingWriting(StateChangeWriter states) {
        return new Finishing(
                gateway.bean(JobValidator.class),
                gateway.bean(RedisDelayStore.class),
                gateway.bean(Journal.class),
                states,
                Clock.systemUTC());
    }
}
