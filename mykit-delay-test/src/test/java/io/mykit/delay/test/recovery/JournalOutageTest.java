package io.mykit.delay.test.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.queue.service.PushPipeline;
import io.mykit.delay.test.gateway.FailureLog;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TcpProxy;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The journal database becomes unreachable (a TCP proxy in front of the real MariaDB is cut): pushes answer 503 (saying
 * "journal unavailable" and a request id; the driver's message is in the log only) and store nothing, jobs already
 * accepted are still delivered and finished, and their Finish is written once the database is back.
 */
class JournalOutageTest {
    private static TcpProxy proxy;
    private static TestGateway gateway;
    private static GatewayClient client;
    private static String database;
    private static String journalUrl;

    @BeforeAll
    static void start() {
        proxy = new TcpProxy(TestServers.LOCALHOST, TestServers.mariaDbPort());
        String unique = UUID.randomUUID().toString().substring(0, 8);
        database = "mykit_it_jo_" + unique;
        journalUrl = TestServers.jdbcUrlThrough(proxy, database);
        gateway = TestGateway.start(
                "spring.datasource.url=" + journalUrl,
                "spring.datasource.hikari.connection-timeout=1000",
                "mykit.delay.journal.push-timeout=5s");
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        proxy.close();
        TestServers.dropDatabase(database);
    }

    /**
     * A journal that stops answering (bytes held, no reset) does not hold a push past journal.push-timeout, even one
     * its own request thread commits: the call gives up at the timeout and answers 503 (it may still land).
     */
    @Test
    void a_hung_journal_answers_a_push_503_within_the_push_timeout() {
        String topic = "jo-hung-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(client.push("{\"topic\":\"" + topic + "\",\"delay\":60000}").status())
                .isEqualTo(200);
        proxy.freeze();
        try {
            long started = System.nanoTime();
            Reply refused = client.push("{\"topic\":\"" + topic + "\",\"delay\":60000}");
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
            // push-timeout is 5 s here; well under the HTTP client's 60 s
            assertThat(tookMs).as("answered after %d ms", tookMs).isLessThan(9_000);
        } finally {
            proxy.thaw();
        }
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(client.push("{\"topic\":\"" + topic + "\",\"delay\":60000}")
                                .status())
                        .isEqualTo(200));
    }

    @Test
    void database_down_means_503_on_push_while_delivery_goes_on_and_finish_is_written_later() {
        String topic = "jo-" + UUID.randomUUID().toString().substring(0, 8);
        // its storing row's deletion (lookup: Delay, or Ready once it fell due) must reach the journal before the cut;
        // due in 4 s, so it is usually still delayed at the cut, but a loaded machine may take longer to get there
        String accepted = client.push("{\"topic\":\"" + topic + "\",\"delay\":4000}")
                .data()
                .asText();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                client.lookup(accepted).data().path("status").asText())
                        .isIn("Delay", "Ready"));

        proxy.cut();
        try (FailureLog failures = FailureLog.capture()) {
            String refusedId = "refused-" + UUID.randomUUID();
            Reply refused = client.push("{\"topic\":\"" + topic + "\",\"id\":\"" + refusedId + "\",\"delay\":0}");
            assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
            assertThat(refused.json().path("success").asBoolean(true)).isFalse();
            assertThat(failures.lineOf(refused, "journal unavailable")).contains("journal unavailable: ");

            Reply pulled = client.get(topic, 30_000, 30_000);
            assertThat(pulled.data().path("id").asText())
                    .as("due job delivered without the journal")
                    .isEqualTo(accepted);
            assertThat(client.finish(accepted).status()).isEqualTo(200);
            assertThat(client.get(topic, 30_000, 1_000).data().isNull())
                    .as("the refused push stored nothing")
                    .isTrue();
            Reply lookup = client.lookup(accepted);
            assertThat(lookup.status()).as("look-ups need the journal").isEqualTo(503);
            assertThat(failures.lineOf(lookup, "journal unavailable")).contains("journal unavailable: ");

            proxy.heal();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(client.lookup(accepted)
                                    .data()
                                    .path("status")
                                    .asText())
                            .isEqualTo("Finish"));
            assertThat(client.lookup(refusedId).status()).isEqualTo(404);
        } finally {
            proxy.heal();
        }
        Reply after = client.push("{\"topic\":\"" + topic + "\",\"delay\":0}");
        assertThat(after.status()).isEqualTo(200);
    }

    /**
     * A stalled journal (the first push's writer waits for it, holding the gather turn): the pushes queued behind it
     * answer 503 "nothing was stored" at the push timeout, leave the queue at once, and are never committed once the
     * journal answers again; the push whose commit had begun answers that it may still be stored.
     */
    @Test
    void pushes_dropped_from_the_queue_with_503_are_never_committed_later() {
        // callers give up well before the stalled writer does (a connection check alone takes Hikari 5 s)
        try (TestGateway quick = TestGateway.start(
                "spring.datasource.url=" + journalUrl,
                "spring.datasource.hikari.connection-timeout=1000",
                "mykit.delay.journal.push-timeout=2s")) {
            dropsQueuedPushes(quick, quick.client());
        }
    }

    private static void dropsQueuedPushes(TestGateway gateway, GatewayClient client) {
        String topic = "jo-drop-" + UUID.randomUUID().toString().substring(0, 8);
        PushPipeline pushes = gateway.bean(PushPipeline.class);
        List<String> dropped = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            dropped.add("dropped-" + i + "-" + UUID.randomUUID());
        }
        proxy.freeze();
        try {
            CompletableFuture<Reply> first =
                    CompletableFuture.supplyAsync(() -> client.push(job(topic, "held-" + UUID.randomUUID())));
            await().pollDelay(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> pushes.backlog() == 0);
            List<CompletableFuture<Reply>> queued = dropped.stream()
                    .map(id -> CompletableFuture.supplyAsync(() -> client.push(job(topic, id))))
                    .toList();
            for (CompletableFuture<Reply> push : queued) {
                Reply refused = push.join();
                assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
                assertThat(refused.json().path("message").asText()).contains("nothing was stored");
            }
            assertThat(pushes.backlog())
                    .as("calls answered 503 left the push queue")
                    .isZero();
            Reply unsure = first.join();
            assertThat(unsure.status()).as(unsure.toString()).isEqualTo(503);
            assertThat(unsure.json().path("message").asText()).contains("may still be stored");
        } finally {
            proxy.thaw();
        }
        // a push after the stall is taken after anything still queued before it
        String later = "later-" + UUID.randomUUID();
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() ->
                        assertThat(client.push(job(topic, later)).status()).isEqualTo(200));
        for (String id : dropped) {
            assertThat(client.lookup(id).status())
                    .as("push %s answered 503 'nothing was stored'", id)
                    .isEqualTo(404);
        }
    }

    private static String job(String topic, String id) {
        return "{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"delay\":60000}";
    }
}
