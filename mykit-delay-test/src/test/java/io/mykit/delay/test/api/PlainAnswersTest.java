package io.mykit.delay.test.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.queue.stats.LatenessRecorder;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.StreamClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Answers that say what is true and what to do: fields named, units given, no Java class names, real counts. */
class PlainAnswersTest {
    private static final String ADMIN_TOKEN = "plain-answers-admin-7f3b";
    /** Topics of this prefix go to the log target: no puller ever receives their jobs. */
    private static final String LOGGED = "plain-logged-";

    @Gateway({
        "mykit.delay.pull.poll-interval=50ms",
        "mykit.delay.admin.token=" + ADMIN_TOKEN,
        "mykit.delay.dispatch.routes[" + LOGGED + "*]=log"
    })
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String push(String json) {
        Reply pushed = client.push(json);
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        return pushed.data().asText();
    }

    private static void assertRefused(Reply reply, int status, String field) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.json().path("success").asBoolean(true)).isFalse();
        if (field != null) {
            assertThat(reply.json().path("field").asText()).as(reply.toString()).isEqualTo(field);
        }
        assertThat(reply.json().path("message").asText())
                .as("no Java names in an answer")
                .doesNotContain("io.mykit", "java.", "Job`", "Cannot deserialize");
    }

    @Test
    void an_empty_topic_in_a_bizKey_lookup_means_every_topic() {
        String bizKey = unique("order-");
        String id =
                push("{\"topic\":\"" + unique("plain-bk-") + "\",\"bizKey\":\"" + bizKey + "\",\"delay\":86400000}");
        Reply reply = client.get("/jobs?bizKey=" + bizKey + "&topic=");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.data()).hasSize(1);
        assertThat(reply.data().get(0).path("id").asText()).isEqualTo(id);
    }

    @Test
    void a_lookup_shows_the_tries_used_and_the_due_time_a_release_set() {
        String topic = unique("plain-tries-");
        String id = push("{\"topic\":\"" + topic + "\",\"tries\":5}");
        Reply pulled = client.get(topic, 30_000, 10_000);
        assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(id);
        assertThat(pulled.data().path("attempts").asInt())
                .as("earlier tries, in the pulled copy")
                .isZero();

        assertThat(client.lookup(id).data().path("attempts").asInt())
                .as("a reservation uses a try")
                .isEqualTo(1);

        long releasedAt = System.currentTimeMillis();
        Reply released = client.raw("POST", "/release?jobId=" + id + "&delay=3600000", null, null);
        assertThat(released.status()).as(released.toString()).isEqualTo(200);
        JsonNode view = client.lookup(id).data();
        assertThat(view.path("stage").asText()).isEqualTo("DELAYED");
        assertThat(view.path("attempts").asInt()).isEqualTo(1);
        assertThat(view.path("dueTime").asLong())
                .as("the due time the release set")
                .isGreaterThanOrEqualTo(releasedAt + 3_600_000);
        assertThat(view.path("dueTime").asLong() - view.path("createTime").asLong())
                .as("not the one it was pushed with")
                .isGreaterThan(3_000_000);
    }

    @Test
    void a_dead_job_keeps_the_tries_it_died_with_in_its_lookup_and_the_dead_letter_list() {
        String topic = unique("plain-dead-");
        String id = push("{\"topic\":\"" + topic + "\",\"tries\":2}");
        for (int i = 0; i < 2; i++) {
            Reply pulled = client.get(topic, 30_000, 10_000);
            assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(id);
            Reply released = client.raw("POST", "/release?jobId=" + id, null, null);
            assertThat(released.status()).as(released.toString()).isEqualTo(200);
            assertThat(released.data().path("dead").asBoolean()).isEqualTo(i == 1);
        }
        JsonNode view = client.lookup(id).data();
        assertThat(view.path("status").asText()).isEqualTo("Dead");
        assertThat(view.path("attempts").asInt()).isEqualTo(2);
        Reply dead = client.get("/dead/" + topic);
        assertThat(dead.status()).as(dead.toString()).isEqualTo(200);
        assertThat(dead.data()).hasSize(1);
        assertThat(dead.data().get(0).path("attempts").asInt()).isEqualTo(2);
    }

    @Test
    void a_released_job_is_late_by_the_due_time_its_release_set(@Gateway TestGateway own) {
        GatewayClient ownClient = own.client();
        long releaseDelay = 5_000;
        String topic = unique("plain-late-");
        Reply pushed = ownClient.push("{\"topic\":\"" + topic + "\"}");
        String id = pushed.data().asText();
        assertThat(ownClient.get(topic, 30_000, 10_000).data().path("id").asText())
                .isEqualTo(id);
        Reply released = ownClient.raw("POST", "/release?jobId=" + id + "&delay=" + releaseDelay, null, null);
        assertThat(released.status()).as(released.toString()).isEqualTo(200);
        Reply again = ownClient.get(topic, 30_000, 20_000);
        assertThat(again.data().path("id").asText()).as(again.toString()).isEqualTo(id);

        LatenessRecorder.Summary lateness = own.bean(LatenessRecorder.class).summary(600_000, 1024);
        assertThat(lateness.maxMs())
                .as("no hand-over counted late by the time a release made it wait: %s", lateness)
                .isLessThan(releaseDelay);
    }

    @Test
    void a_create_time_in_seconds_is_refused_naming_the_unit() {
        long seconds = System.currentTimeMillis() / 1000;
        String topic = unique("plain-ct-");
        Reply one = client.push("{\"topic\":\"" + topic + "\",\"createTime\":" + seconds + "}");
        assertRefused(one, 400, "createTime");
        assertThat(one.json().path("message").asText()).contains("milliseconds since the epoch", "2000-01-01");
        Reply batch = client.pushBatch(
                "[{\"topic\":\"" + topic + "\"},{\"topic\":\"" + topic + "\",\"createTime\":" + seconds + "}]");
        assertRefused(batch, 400, "[1].createTime");
        assertThat(batch.json().path("message").asText()).contains("milliseconds since the epoch");

        long millis = System.currentTimeMillis() - 1_000;
        assertThat(client.push("{\"topic\":\"" + topic + "\",\"createTime\":" + millis + ",\"delay\":86400000}")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void an_array_sent_to_push_points_to_the_batch_route() {
        Reply reply = client.push("[{\"topic\":\"" + unique("plain-arr-") + "\"}]");
        assertRefused(reply, 400, "request");
        assertThat(reply.json().path("message").asText()).contains("one job", "/push/batch");
    }

    @Test
    void a_value_of_the_wrong_type_is_answered_with_the_type_the_field_takes() {
        String topic = unique("plain-type-");
        Reply delay = client.push("{\"topic\":\"" + topic + "\",\"delay\":\"soon\"}");
        assertRefused(delay, 400, "delay");
        assertThat(delay.json().path("message").asText())
                .isEqualTo("delay: wrong type, must be a whole number" + " (milliseconds)");
        Reply body = client.push("{\"topic\":\"" + topic + "\",\"body\":{\"a\":1}}");
        assertRefused(body, 400, "body");
        assertThat(body.json().path("message").asText()).isEqualTo("body: wrong type, must be a string");
        Reply tries = client.pushBatch("[{\"topic\":\"" + topic + "\",\"tries\":\"many\"}]");
        assertRefused(tries, 400, "[0].tries");
        assertThat(tries.json().path("message").asText()).contains("must be a whole number");
    }

    @Test
    void a_wrong_admin_token_is_told_apart_from_a_missing_one() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String wrong = "not-the-token-91c2";
        HttpResponse<String> withWrong = http.send(
                HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/reStore/status"))
                        .header("X-Admin-Token", wrong)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(withWrong.statusCode()).isEqualTo(401);
        assertThat(withWrong.body()).contains("admin token wrong").doesNotContain(wrong, ADMIN_TOKEN);
        HttpResponse<String> without = http.send(
                HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/reStore/status"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.body()).contains("admin token required");
    }

    @Test
    void a_pull_of_a_topic_routed_elsewhere_is_refused_naming_its_target() {
        String topic = unique(LOGGED);
        for (String path : new String[] {"/get/" + topic + "?timeout=0", "/get/" + topic + "/batch?count=5"}) {
            Reply reply = client.get(path);
            assertRefused(reply, 409, null);
            assertThat(reply.json().path("message").asText()).contains(topic, "log target", "not to pullers");
        }
        assertThat(StreamClient.refusal(gateway.baseUrl(), "topics=" + unique("plain-pulled-") + "," + topic, Map.of()))
                .as("a stream of it")
                .isEqualTo(409);
    }

    @Test
    void the_root_sends_a_browser_to_the_console() throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        HttpResponse<String> root = http.send(
                HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/"))
                        .header("Accept", "text/html")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location"))
                .hasValueSatisfying(to -> assertThat(to).endsWith("/console/"));
        HttpResponse<String> console = http.send(
                HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/console/"))
                        .header("Accept", "text/html")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(console.statusCode()).isEqualTo(200);
    }
}
