package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Push -> due -> pull -> finish against real Redis and MariaDB, through HTTP. */
class DeliveryPathTest {
    @Gateway("mykit.delay.pull.poll-interval=50ms")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String topic() {
        return "t-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private List<Integer> journalStatuses(String jobId) throws InterruptedException {
        return gateway.journalStatuses(jobId);
    }

    @Test
    void pushed_job_is_pulled_after_its_delay_and_finished() throws Exception {
        String topic = topic();
        long pushedAt = System.currentTimeMillis();
        Reply pushed = client.push("{\"topic\":\"" + topic
                + "\",\"subtopic\":\"s1\",\"bizKey\":\"order-42\",\"delay\":3000,\"body\":\"hello\"}");
        assertThat(pushed.status()).isEqualTo(200);
        assertThat(pushed.json().path("success").asBoolean()).isTrue();
        assertThat(pushed.json().path("message").asText()).isEqualTo("ok");
        String id = pushed.data().asText();

        // seconds of delay, so a slow machine cannot let it fall due before the next call
        assertThat(client.get(topic, 30_000, 0).data().isNull())
                .as("not due yet")
                .isTrue();
        Reply pulled = client.get(topic, 30_000, 30_000);
        long pulledAt = System.currentTimeMillis();
        assertThat(pulled.data().path("id").asText()).isEqualTo(id);
        assertThat(pulled.data().path("body").asText()).isEqualTo("hello");
        assertThat(pulled.data().path("bizKey").asText()).isEqualTo("order-42");
        assertThat(pulledAt - pushedAt).isGreaterThanOrEqualTo(3_000);

        assertThat(client.finish(id).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("status").asText())
                                .isEqualTo("Finish"));
        // WaitPut(0) (the push; its row is Delay from the start) -> Ready(2) -> Finish(3)
        assertThat(journalStatuses(id)).containsExactly(0, 2, 3);
        // journal times keep their milliseconds (mysql-connector-j drops them on MariaDB 10 unless bound as text)
        assertThat(gateway.bean(Journal.class).history(id))
                .extracting(row -> row.updateTime().getNano())
                .anyMatch(nanos -> nanos != 0);
        assertThat(client.get(topic, 30_000, 300).data().isNull())
                .as("finished job is never delivered again")
                .isTrue();
    }

    @Test
    void deleted_job_is_never_delivered() throws Exception {
        String topic = topic();
        String id = client.push("{\"topic\":\"" + topic + "\",\"delay\":300}")
                .data()
                .asText();
        Reply deleted = client.delete(id);
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(client.get(topic, 30_000, 1_500).data().isNull()).isTrue();
        assertThat(client.lookup(id).data().path("status").asText()).isEqualTo("Delete");
        assertThat(client.delete(id).status()).as("second cancel").isEqualTo(409);

        String other = client.push("{\"topic\":\"" + topic + "\",\"delay\":300}")
                .data()
                .asText();
        assertThat(client.raw("DELETE", "/jobs/" + other, null, null).status()).isEqualTo(200);
        assertThat(client.get(topic, 30_000, 1_000).data().isNull()).isTrue();
    }

    @Test
    void reservation_not_finished_within_ttr_is_delivered_again() throws Exception {
        String topic = topic();
        String id =
                client.push("{\"topic\":\"" + topic + "\",\"delay\":0}").data().asText();
        // a ttr of seconds: on a loaded machine the next call can come more than a second later, and the job must
        // still be reserved then; the redelivery is waited for, not timed
        Reply first = client.get(topic, 3_000, 30_000);
        assertThat(first.data().path("id").asText()).isEqualTo(id);
        assertThat(client.get(topic, 3_000, 0).data().isNull())
                .as("reserved, so not handed to a second puller")
                .isTrue();

        Reply again = client.get(topic, 30_000, 30_000);
        assertThat(again.data().path("id").asText()).isEqualTo(id);
        assertThat(client.finish(id).status()).isEqualTo(200);
        // Ready -> (ttr passed) Delay -> Ready -> Finish; the log is in write order, and the sweeper's return is
        // written by another writer than the Ready changes, so only what was logged is checked, not its order
        java.util.List<Integer> log = journalStatuses(id);
        assertThat(log.stream().filter(code -> code == 2).count())
                .as("Ready rows in %s", log)
                .isEqualTo(2);
        assertThat(log).as("returned after its ttr, then finished").contains(1, 3);
        assertThat(client.lookup(id).data().path("status").asText()).isEqualTo("Finish");
    }

    @Test
    void pushing_the_same_id_twice_changes_nothing() throws Exception {
        String topic = topic();
        String id = "dup-" + UUID.randomUUID();
        Reply a = client.push("{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"delay\":200,\"body\":\"first\"}");
        Reply b = client.push("{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"delay\":200,\"body\":\"second\"}");
        assertThat(a.data().asText()).isEqualTo(id);
        assertThat(b.status()).isEqualTo(200);
        assertThat(b.data().asText()).isEqualTo(id);

        Reply pulled = client.get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("body").asText()).isEqualTo("first");
        client.finish(id);
        assertThat(client.get(topic, 30_000, 800).data().isNull())
                .as("delivered once")
                .isTrue();
        // and a push of a finished id does not bring it back
        assertThat(client.push("{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"delay\":0}")
                        .data()
                        .asText())
                .isEqualTo(id);
        assertThat(client.get(topic, 30_000, 800).data().isNull()).isTrue();
        assertThat(journalStatuses(id).stream().filter(s -> s == 0).count())
                .as("one WaitPut row")
                .isEqualTo(1);
    }

    @Test
    void batch_push_delivers_every_job() {
        String topic = topic();
        String body = IntStream.range(0, 300)
                .mapToObj(i -> "{\"topic\":\"" + topic + "\",\"delay\":" + (i % 5) * 50 + ",\"body\":\"b" + i + "\"}")
                .collect(Collectors.joining(",", "[", "]"));
        Reply pushed = client.pushBatch(body);
        assertThat(pushed.status()).isEqualTo(200);
        Set<String> ids = new HashSet<>();
        pushed.data().forEach(n -> ids.add(n.asText()));
        assertThat(ids).hasSize(300);

        Set<String> received = new HashSet<>();
        long deadline = System.currentTimeMillis() + 30_000;
        while (received.size() < 300 && System.currentTimeMillis() < deadline) {
            Reply r = client.get(topic, 30_000, 1_000);
            if (!r.data().isNull()) {
                received.add(r.data().path("id").asText());
                assertThat(client.finish(r.data().path("id").asText()).status()).isEqualTo(200);
            }
        }
        assertThat(received).isEqualTo(ids);
    }

    @Test
    void jobs_come_out_in_score_order_create_time_plus_delay_plus_priority() throws Exception {
        String topic = topic();
        long base = System.currentTimeMillis();
        // scores base+2000+3p with p = 400, 300, 200, 100, 0, pushed in one batch in reverse order. All five are in one
        // bucket, where due jobs go to the ready list in score order: the order holds however many of them a slow
        // machine finds due in one pump (jobs of different buckets are handed over bucket by bucket)
        List<String> ids = sameBucketIds(5);
        StringBuilder batch = new StringBuilder("[");
        for (int p = 400; p >= 0; p -= 100) {
            batch.append(p == 400 ? "" : ",")
                    .append("{\"topic\":\"")
                    .append(topic)
                    .append("\",\"id\":\"")
                    .append(ids.get(p / 100))
                    .append("\",\"createTime\":")
                    .append(base)
                    .append(",\"delay\":2000,\"priority\":")
                    .append(3 * p)
                    .append(",\"body\":\"p")
                    .append(p)
                    .append("\"}");
        }
        assertThat(client.pushBatch(batch.append(']').toString()).status()).isEqualTo(200);
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Reply r = client.get(topic, 30_000, 30_000);
            bodies.add(r.data().path("body").asText());
            client.finish(r.data().path("id").asText());
        }
        assertThat(bodies).containsExactly("p0", "p100", "p200", "p300", "p400");
    }

    /** {@code n} fresh job ids that the gateway keeps in one bucket. */
    private static List<String> sameBucketIds(int n) {
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        String first = "order-" + UUID.randomUUID();
        List<String> ids = new ArrayList<>(List.of(first));
        while (ids.size() < n) {
            String id = "order-" + UUID.randomUUID();
            if (store.bucketOf(id) == store.bucketOf(first)) {
                ids.add(id);
            }
        }
        return ids;
    }

    @Test
    void lookup_of_unknown_job_is_404_and_finish_of_undelivered_job_is_409() {
        assertThat(client.lookup("no-such-job").status()).isEqualTo(404);
        assertThat(client.finish("no-such-job").status()).isEqualTo(404);
        String id = client.push("{\"topic\":\"" + topic() + "\",\"delay\":60000}")
                .data()
                .asText();
        assertThat(client.finish(id).status()).isEqualTo(409);
        assertThat(client.lookup(id).data().path("stage").asText()).isEqualTo("DELAYED");
    }
}
