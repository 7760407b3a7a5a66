package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each tenant limit is hit (429), recovers, and shows in the metrics tagged by tenant; other tenants are not held. */
class TenantLimitsTest {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final int BURST_LIMIT = 50;
    private static final int DEAD_LIMIT = 5;
    private static TestGateway gateway;
    private static TenantHttp http;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(
                "mykit.delay.tenants.rate.token=rate-token",
                "mykit.delay.tenants.rate.topics=rate-*",
                "mykit.delay.tenants.rate.push-rate=2",
                "mykit.delay.tenants.pending.token=pending-token",
                "mykit.delay.tenants.pending.topics=pending-*",
                "mykit.delay.tenants.pending.max-pending=3",
                "mykit.delay.tenants.polls.token=polls-token",
                "mykit.delay.tenants.polls.topics=polls-*",
                "mykit.delay.tenants.polls.max-polls=1",
                "mykit.delay.pull.max-timeout=60s",
                "mykit.delay.tenants.free.token=free-token",
                "mykit.delay.tenants.free.topics=free-*",
                "mykit.delay.tenants.burst.token=burst-token",
                "mykit.delay.tenants.burst.topics=burst-*",
                "mykit.delay.tenants.burst.max-pending=" + BURST_LIMIT,
                "mykit.delay.tenants.dead.token=dead-token",
                "mykit.delay.tenants.dead.topics=dead-*",
                "mykit.delay.tenants.dead.max-pending=" + DEAD_LIMIT);
        http = new TenantHttp(gateway.baseUrl());
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static Answer push(String token, String topic) {
        return http.call(token, "POST", "/push", "{\"topic\":\"" + topic + "\",\"delay\":3600000}");
    }

    @Test
    void push_rate_answers_429_with_retry_after_and_recovers() throws Exception {
        String topic = "rate-" + RUN;
        Answer refused = null;
        for (int i = 0; i < 10 && refused == null; i++) {
            Answer answer = push("rate-token", topic);
            if (answer.status() == 429) {
                refused = answer;
            } else {
                assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            }
        }
        assertThat(refused).as("a push past 2/s is refused").isNotNull();
        assertThat(Long.parseLong(refused.retryAfter())).isBetween(1L, 2L);
        // another tenant is not held by it
        assertThat(push("free-token", "free-" + RUN).status()).isEqualTo(200);
        Thread.sleep(Long.parseLong(refused.retryAfter()) * 1000);
        assertThat(push("rate-token", topic).status()).isEqualTo(200);
        assertThat(scrape())
                .containsPattern("mykit_delay_tenant_refusals_total\\{[^}]*reason=\"push-rate\",tenant=\"rate\"} [1-9]")
                .containsPattern("mykit_delay_tenant_pushes_total\\{[^}]*tenant=\"rate\"} [1-9]");
    }

    @Test
    void max_pending_answers_429_until_a_job_ends() {
        String topic = "pending-" + RUN;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Answer answer = push("pending-token", topic);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            ids.add(answer.data().asText());
        }
        Answer refused = push("pending-token", topic);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
        assertThat(refused.retryAfter()).isNotNull();
        assertThat(http.call("pending-token", "DELETE", "/jobs/" + ids.get(0), null)
                        .status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> push("pending-token", topic).status() == 200);
        assertThat(push("pending-token", topic).status()).isEqualTo(429);
        assertThat(scrape())
                .containsPattern(
                        "mykit_delay_tenant_refusals_total\\{[^}]*reason=\"max-pending\",tenant=\"pending\"} [1-9]");
    }

    @Test
    void max_polls_answers_429_while_the_tenants_long_poll_is_open_and_not_after() throws Exception {
        String topic = "polls-" + RUN;
        // the open poll lasts longer than any step here on a loaded machine; a job due now ends it
        CompletableFuture<Answer> open = CompletableFuture.supplyAsync(
                () -> http.call("polls-token", "GET", "/get/" + topic + "?timeout=45000", null));
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> http.call("polls-token", "GET", "/get/" + topic + "?timeout=0", null)
                                .status()
                        == 429);
        assertThat(http.call("free-token", "GET", "/get/free-" + RUN + "?timeout=0", null)
                        .status())
                .isEqualTo(200);
        assertThat(http.call("polls-token", "POST", "/push", "{\"topic\":\"" + topic + "\",\"delay\":0}")
                        .status())
                .isEqualTo(200);
        Answer answered = open.get(30, TimeUnit.SECONDS);
        assertThat(answered.status()).as(answered.toString()).isEqualTo(200);
        assertThat(answered.body()).contains(topic);
        assertThat(http.call("polls-token", "GET", "/get/" + topic + "/batch?count=2&timeout=0", null)
                        .status())
                .isEqualTo(200);
        assertThat(scrape())
                .containsPattern(
                        "mykit_delay_tenant_refusals_total\\{[^}]*reason=\"max-polls\",tenant=\"polls\"} [1-9]");
    }

    @Test
    void concurrent_batches_never_take_a_tenant_past_max_pending() {
        String topic = "burst-" + RUN;
        String batch = "[" + String.join(",", java.util.Collections.nCopies(10, job(topic))) + "]";
        HttpClient client = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            calls.add(client.sendAsync(
                    HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/push/batch"))
                            .header("Authorization", "Bearer burst-token")
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(batch))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        int stored = 0;
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> answer = call.join();
            assertThat(answer.statusCode()).as(answer.body()).isIn(200, 429);
            stored += answer.statusCode() == 200 ? 10 : 0;
        }
        assertThat(stored).as("jobs the 200s stored").isBetween(10, BURST_LIMIT);
        assertThat(pendingOf("burst-token")).isEqualTo(stored);
    }

    @Test
    void a_respawn_takes_room_under_max_pending_whoever_asks() {
        String topic = "dead-" + RUN;
        List<String> dead = new ArrayList<>();
        for (int i = 0; i < DEAD_LIMIT; i++) {
            dead.add(bury("dead-token", topic));
        }
        List<String> waiting = new ArrayList<>();
        // the buried jobs leave the pending count at its next read, within a second: until then a push may be refused
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Answer pushed = push("dead-token", topic);
                    if (pushed.status() == 200) {
                        waiting.add(pushed.data().asText());
                    }
                    return waiting.size() == DEAD_LIMIT;
                });
        Answer own = http.call("dead-token", "POST", "/dead/" + topic + "/respawn", null);
        assertThat(own.status()).as(own.toString()).isEqualTo(429);
        assertThat(own.retryAfter()).isNotNull();
        // the admin (this host, no admin token set) respawning into the tenant's topic takes the tenant's room too
        Answer admin = http.call(null, "POST", "/dead/" + topic + "/respawn", null);
        assertThat(admin.status()).as(admin.toString()).isEqualTo(429);
        assertThat(http.call("dead-token", "GET", "/dead/" + topic, null).data().size())
                .isEqualTo(DEAD_LIMIT);

        for (String id : waiting.subList(0, 2)) {
            assertThat(http.call("dead-token", "DELETE", "/jobs/" + id, null).status())
                    .isEqualTo(200);
        }
        String two = "{\"ids\":[\"" + dead.get(0) + "\",\"" + dead.get(1) + "\"]}";
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> http.call("dead-token", "POST", "/dead/" + topic + "/respawn", two)
                                .status()
                        == 200);
        Answer rest = http.call(null, "POST", "/dead/" + topic + "/respawn", null);
        assertThat(rest.status()).as(rest.toString()).isEqualTo(429);
        assertThat(pendingOf("dead-token")).isEqualTo(DEAD_LIMIT);
    }

    private static String job(String topic) {
        return "{\"topic\":\"" + topic + "\",\"delay\":3600000}";
    }

    /** Jobs pending across the tenant's topics, as its own /stats counts them: waiting, ready and reserved. */
    private static long pendingOf(String token) {
        Answer stats = http.call(token, "GET", "/stats", null);
        assertThat(stats.status()).as(stats.toString()).isEqualTo(200);
        return stats.data().path("pending").asLong()
                + stats.data().path("ready").asLong()
                + stats.data().path("inFlight").asLong();
    }

    /** Pushes a job with one try, reserves it and releases it: out of tries, it is dead. */
    private static String bury(String token, String topic) {
        String body = "{\"topic\":\"" + topic + "\",\"delay\":0,\"tries\":1,\"body\":\"b\"}";
        Answer pushed = http.call(token, "POST", "/push", body);
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        String id = pushed.data().asText();
        Answer got = http.call(token, "GET", "/get/" + topic + "?ttr=60000&timeout=10000", null);
        assertThat(got.data().path("id").asText()).as(got.toString()).isEqualTo(id);
        Answer released = http.call(token, "POST", "/release?jobId=" + id, null);
        assertThat(released.data().path("dead").asBoolean())
                .as(released.toString())
                .isTrue();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> http.call(token, "GET", "/dead/" + topic, null)
                        .data()
                        .toString()
                        .contains(id));
        return id;
    }

    private static String scrape() {
        return http.call(null, "GET", "/actuator/prometheus", null).body();
    }
}
