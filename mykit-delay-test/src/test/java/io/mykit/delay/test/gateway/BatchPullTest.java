package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
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

/** GET /get/{topic}/batch and POST /finish/batch against real Redis and MariaDB, through HTTP. */
class BatchPullTest {
    @Gateway("mykit.delay.pull.poll-interval=50ms")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String topic() {
        return "b-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private List<String> pushDue(String topic, int count) {
        String jobs = IntStream.range(0, count)
                .mapToObj(i -> "{\"topic\":\"" + topic + "\",\"delay\":0,\"body\":\"" + i + "\"}")
                .collect(Collectors.joining(",", "[", "]"));
        Reply pushed = client.pushBatch(jobs);
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        pushed.data().forEach(id -> ids.add(id.asText()));
        return ids;
    }

    private static List<String> ids(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.data().isArray()).as(reply.toString()).isTrue();
        List<String> ids = new ArrayList<>();
        reply.data().forEach(job -> ids.add(job.path("id").asText()));
        return ids;
    }

    private Reply finishBatch(String jsonArray) {
        return client.raw("POST", "/finish/batch", "application/json", jsonArray);
    }

    @Test
    void batch_reserves_at_most_count_jobs_each_once_and_finishes_them_in_one_call() {
        String topic = topic();
        List<String> pushed = pushDue(topic, 7);

        // the jobs become ready bucket by bucket: keep asking until all seven came, never more than three at a time
        Set<String> reserved = new HashSet<>();
        List<String> all = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<String> got = ids(client.get("/get/" + topic + "/batch?count=3&ttr=30000&timeout=1000"));
            assertThat(got.size()).isBetween(0, 3);
            all.addAll(got);
            reserved.addAll(got);
            return reserved.size() == 7;
        });
        assertThat(all).as("no job handed out twice").hasSize(7).containsExactlyInAnyOrderElementsOf(pushed);
        assertThat(ids(client.get("/get/" + topic + "/batch?count=10&ttr=30000&timeout=200")))
                .as("all reserved")
                .isEmpty();

        String unknown = "no-such-" + UUID.randomUUID();
        List<String> request = new ArrayList<>(pushed);
        request.add(pushed.get(0));
        request.add(unknown);
        Reply finished =
                finishBatch(request.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]")));
        assertThat(finished.status()).as(finished.toString()).isEqualTo(200);
        List<String> done = new ArrayList<>();
        finished.data().path("finished").forEach(id -> done.add(id.asText()));
        assertThat(done).containsExactlyInAnyOrderElementsOf(pushed);
        JsonNode refused = finished.data().path("refused");
        assertThat(refused.size()).isEqualTo(1);
        assertThat(refused.path(unknown).asText()).isEqualTo("no such job");

        pushed.forEach(id -> await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("status").asText())
                                .isEqualTo("Finish")));
        Reply again = finishBatch("[\"" + pushed.get(1) + "\"]");
        assertThat(again.data().path("finished").get(0).asText())
                .as("finishing twice is not an error")
                .isEqualTo(pushed.get(1));
    }

    @Test
    void jobs_of_a_batch_left_unfinished_come_back_after_ttr() {
        String topic = topic();
        List<String> pushed = pushDue(topic, 3);
        List<String> first = new ArrayList<>();
        // a ttr of seconds: the reservations must last until the finish below on a loaded machine too
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            first.addAll(ids(client.get("/get/" + topic + "/batch?count=3&ttr=3000&timeout=1000")));
            return first.size() == 3;
        });
        assertThat(finishBatch("[\"" + first.get(0) + "\"]")
                        .data()
                        .path("finished")
                        .size())
                .isEqualTo(1);

        List<String> second = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            second.addAll(ids(client.get("/get/" + topic + "/batch?count=3&ttr=30000&timeout=1000")));
            return second.size() >= 2;
        });
        assertThat(second).containsExactlyInAnyOrder(first.get(1), first.get(2));
        assertThat(pushed).containsAll(second);
    }

    @Test
    void a_job_not_yet_due_is_refused_and_stays_pending() {
        String topic = topic();
        String id = client.push("{\"topic\":\"" + topic + "\",\"delay\":60000}")
                .data()
                .asText();
        Reply reply = finishBatch("[\"" + id + "\"]");
        assertThat(reply.data().path("finished").size()).isZero();
        assertThat(reply.data().path("refused").path(id).asText()).startsWith("not due yet");
        assertThat(client.lookup(id).data().path("stage").asText()).isEqualTo("DELAYED");
    }

    @Test
    void bad_batch_requests_are_400_naming_the_field() {
        String topic = topic();
        assertField(client.get("/get/" + topic + "/batch?count=0"), "count");
        assertField(client.get("/get/" + topic + "/batch?count=1001"), "count");
        assertField(client.get("/get/" + topic + "/batch?count=2&ttr=0"), "ttr");
        assertField(finishBatch("[]"), "jobIds");
        assertField(finishBatch("[\"ok-id\", \"\"]"), "jobIds[1]");
        assertThat(finishBatch("[1, 2]").status()).isEqualTo(400);
        assertThat(finishBatch("{\"jobIds\": \"x\"}").status()).isEqualTo(400);
        assertThat(client.get("/get/" + topic + "/batch").status())
                .as("count is required")
                .isEqualTo(400);
    }

    private static void assertField(Reply reply, String field) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().path("success").asBoolean()).isFalse();
        assertThat(reply.json().path("field").asText()).as(reply.toString()).isEqualTo(field);
    }
}
