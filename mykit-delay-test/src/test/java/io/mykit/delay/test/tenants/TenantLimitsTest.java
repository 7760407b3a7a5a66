package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each tenant limit is hit (429), recovers, and shows in the metrics tagged by tenant; other tenants are not held. */
class TenantLimitsTest {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
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
                "mykit.delay.tenants.free.token=free-token",
                "mykit.delay.tenants.free.topics=free-*");
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
        await().atMost(Duration.ofSeconds(10))
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
        CompletableFuture<Answer> open = CompletableFuture.supplyAsync(
                () -> http.call("polls-token", "GET", "/get/" + topic + "?timeout=4000", null));
        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> http.call("polls-token", "GET", "/get/" + topic + "?timeout=0", null)
                                .status()
                        == 429);
        assertThat(http.call("free-token", "GET", "/get/free-" + RUN + "?timeout=0", null)
                        .status())
                .isEqualTo(200);
        assertThat(open.get().status()).isEqualTo(200);
        assertThat(http.call("polls-token", "GET", "/get/" + topic + "/batch?count=2&timeout=0", null)
                        .status())
                .isEqualTo(200);
        assertThat(scrape())
                .containsPattern(
                        "mykit_delay_tenant_refusals_total\\{[^}]*reason=\"max-polls\",tenant=\"polls\"} [1-9]");
    }

    private static String scrape() {
        return http.call(null, "GET", "/actuator/prometheus", null).body();
    }
}
