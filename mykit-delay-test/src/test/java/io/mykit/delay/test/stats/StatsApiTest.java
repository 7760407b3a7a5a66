package io.mykit.delay.test.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /stats, /stats/{topic} and /stats/due through HTTP against a whole gateway on the real Redis and MariaDB. */
class StatsApiTest {
    private static final String TOKEN = "stats-admin-token";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Gateway({
        "mykit.delay.timer.sweep-interval=100ms",
        "mykit.delay.pull.poll-interval=50ms",
        "mykit.delay.admin.token=" + TOKEN
    })
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String topic() {
        return "st-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String push(String topic, String fields) {
        Reply reply = client.push("{\"topic\":\"" + topic + "\"" + fields + "}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }

    /** pending, ready, in flight, dead of one topic as GET /stats/{topic} says. */
    private static String counts(String topic) {
        Reply reply = client.get("/stats/" + topic);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode d = reply.data();
        return d.path("pending").asLong() + "/" + d.path("ready").asLong() + "/"
                + d.path("inFlight").asLong() + "/" + d.path("dead").asLong();
    }

    private static void awaitCounts(String topic, String pendingReadyInFlightDead) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(counts(topic))
                        .as("pending/ready/inFlight/dead of " + topic)
                        .isEqualTo(pendingReadyInFlightDead));
    }

    private static JsonNode line(String topic) {
        JsonNode topics = client.get("/stats").data().path("topics");
        return StreamSupport.stream(topics.spliterator(), false)
                .filter(t -> t.path("topic").asText().equals(topic))
                .findFirst()
                .orElse(null);
    }

    private static Reply admin(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .header("Authorization", "Bearer " + TOKEN)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), MAPPER.readTree(response.body()));
    }

    @Test
    void counts_follow_a_pull_job_from_push_to_finish_and_a_cancel() throws Exception {
        String topic = topic();
        String later = push(topic, ",\"delay\":3600000");
        push(topic, ",\"delay\":3600000");
        assertThat(counts(topic)).isEqualTo("2/0/0/0");
        assertThat(line(topic)).as("the topic in the overview").isNotNull();

        assertThat(client.delete(later).status()).isEqualTo(200);
        assertThat(counts(topic)).as("after a cancel").isEqualTo("1/0/0/0");

        // pushed only now: the counts above must not depend on how soon a short delay runs out on a busy machine
        String soon = push(topic, ",\"delay\":300");
        awaitCounts(topic, "1/1/0/0");
        Reply pulled = client.get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText()).isEqualTo(soon);
        assertThat(counts(topic)).as("reserved by a puller").isEqualTo("1/0/1/0");
        assertThat(client.finish(soon).status()).isEqualTo(200);
        assertThat(counts(topic)).as("finished").isEqualTo("1/0/0/0");

        JsonNode overview = client.get("/stats").data();
        assertThat(overview.path("pending").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(overview.path("lateness").path("samples").asInt())
                .as("the hand-over was recorded")
                .isPositive();
        assertThat(overview.path("lateness").path("p50Ms").isNumber()).isTrue();
        assertThat(overview.path("nextDueTime").asLong()).isGreaterThan(System.currentTimeMillis());
    }

    @Test
    void a_dead_letter_is_counted_and_a_respawn_brings_it_back() throws Exception {
        String topic = topic();
        String id = push(topic, ",\"tries\":1");
        assertThat(client.get(topic, 200, 30_000).data().path("id").asText()).isEqualTo(id);
        // the reservation expires unfinished: with one try the job is buried
        awaitCounts(topic, "0/0/0/1");
        assertThat(line(topic).path("dead").asLong())
                .as("dead letters in the overview")
                .isEqualTo(1);

        Reply respawned = admin("POST", "/dead/" + topic + "/respawn", "{\"ids\":[\"" + id + "\"]}");
        assertThat(respawned.status()).as(respawned.toString()).isEqualTo(200);
        awaitCounts(topic, "0/1/0/0");
        assertThat(client.get(topic, 30_000, 30_000).data().path("id").asText()).isEqualTo(id);
        assertThat(client.finish(id).status()).isEqualTo(200);
        awaitCounts(topic, "0/0/0/0");
    }

    @Test
    void a_restore_after_clear_all_counts_the_jobs_again() throws Exception {
        String topic = topic();
        for (int i = 0; i < 5; i++) {
            push(topic, ",\"delay\":3600000");
        }
        assertThat(counts(topic)).isEqualTo("5/0/0/0");
        assertThat(admin("GET", "/clearAll", null).status()).isEqualTo(200);
        assertThat(counts(topic)).as("after clearAll").isEqualTo("0/0/0/0");
        assertThat(admin("GET", "/reStore?expire=true", null).status()).isEqualTo(200);
        assertThat(counts(topic)).as("after the restore").isEqualTo("5/0/0/0");
        Reply recount = admin("POST", "/stats/recount", null);
        assertThat(recount.status()).as(recount.toString()).isEqualTo(200);
        assertThat(counts(topic)).as("a recount agrees").isEqualTo("5/0/0/0");
    }

    @Test
    void one_topic_shows_its_next_due_time_and_the_due_chart_counts_per_minute() {
        String topic = topic();
        long before = System.currentTimeMillis();
        push(topic, ",\"delay\":90000");
        push(topic, ",\"delay\":95000");
        JsonNode stats = client.get("/stats/" + topic).data();
        assertThat(stats.path("nextDueTime").asLong()).isBetween(before + 90_000, System.currentTimeMillis() + 90_000);
        assertThat(stats.path("nextDueKnown").asBoolean()).isTrue();
        assertThat(stats.path("oldestOverdueTime").isNull()).isTrue();
        assertThat(client.get("/stats?topic=" + topic).data().path("pending").asLong())
                .isEqualTo(2);

        JsonNode due = client.get("/stats/due?minutes=5").data();
        assertThat(due.path("minutes").asInt()).isEqualTo(5);
        assertThat(due.path("perMinute")).hasSize(5);
        long firstTwoMinutes = due.path("perMinute").get(1).asLong()
                + due.path("perMinute").get(0).asLong();
        assertThat(firstTwoMinutes).as("both due 90-95 s from now").isGreaterThanOrEqualTo(2);
        assertThat(client.get("/stats/due").data().path("perMinute"))
                .as("an hour by default")
                .hasSize(60);
    }

    @Test
    void bad_input_gets_a_4xx_json_error_naming_the_field() throws Exception {
        Reply badTopic = client.get("/stats/bad$topic");
        assertThat(badTopic.status()).isEqualTo(400);
        assertThat(badTopic.json().path("field").asText()).isEqualTo("topic");
        Reply zero = client.get("/stats/due?minutes=0");
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.json().path("field").asText()).isEqualTo("minutes");
        assertThat(client.get("/stats/due?minutes=99999").status()).isEqualTo(400);
        Reply word = client.get("/stats/due?minutes=soon");
        assertThat(word.status()).isEqualTo(400);
        assertThat(word.json().path("field").asText()).isEqualTo("minutes");
        Reply noToken = client.raw("POST", "/stats/recount", null, null);
        assertThat(noToken.status()).as("recount is an admin action").isEqualTo(401);
        assertThat(noToken.json().path("success").asBoolean(true)).isFalse();
    }
}
