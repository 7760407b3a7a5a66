package io.mykit.delay.queue.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The engine's loops are supervised on a real gateway: an error that escapes a bucket timer's pass (thrown again while
 * the first is logged, as a full heap does) starts the passes again and the bucket's jobs are still delivered; a pass
 * held past the stall limit turns health and readiness DOWN naming the loop, and UP again once it goes on.
 */
class LoopSupervisionTest {
    private static final String TOKEN = "loops-test-token";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Gateway({"mykit.delay.timer.stall-after=1s", "mykit.delay.admin.token=" + TOKEN})
    private static TestGateway gateway;

    /** An error whose message cannot be built: logging it throws a second error, as logging under a full heap does. */
    private static final class UnloggableError extends Error {
        @Override
        public String toString() {
            throw new OutOfMemoryError("while logging the first");
        }
    }

    @Test
    void an_error_escaping_a_timer_pass_restarts_the_timer_and_its_bucket_is_still_delivered() throws Exception {
        String topic = "loops-" + UUID.randomUUID().toString().substring(0, 8);
        String id = "loops-restart-" + UUID.randomUUID();
        BucketTimer timer = timerOf(id);
        long restartsBefore = timer.heartbeat().restarts();

        timer.beforeNextPass(() -> {
            throw new UnloggableError();
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> timer.heartbeat().restarts() > restartsBefore);

        Reply pushed = gateway.client().push("{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"delay\":100}");
        assertThat(pushed.success()).as(pushed.toString()).isTrue();
        Reply pulled = gateway.client().get(topic, 30_000, 20_000);
        assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(id);
        assertThat(timer.heartbeat().alive()).isTrue();
        assertThat(timer.heartbeat().restarts()).isEqualTo(restartsBefore + 1);
        await().atMost(Duration.ofSeconds(15))
                .until(() -> loopsStatus(health("/actuator/health")).equals("UP"));
    }

    @Test
    void a_stalled_pass_turns_health_and_readiness_down_naming_the_loop_until_it_goes_on() throws Exception {
        BucketTimer timer = timerOf("loops-stall-" + UUID.randomUUID());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        timer.beforeNextPass(() -> {
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(held.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(15)).until(() -> unwell(timer).startsWith("pass running for"));
            // held, it stays so: health and readiness are DOWN for as long as the pass does not end
            JsonNode whole = health("/actuator/health").json();
            assertThat(whole.path("status").asText()).isEqualTo("DOWN");
            assertThat(whole.path("components").path("loops").path("status").asText())
                    .isEqualTo("DOWN");
            assertThat(health("/actuator/health/readiness").status()).isEqualTo(503);
        } finally {
            release.countDown();
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> unwell(timer).isEmpty());
        await().atMost(Duration.ofSeconds(15))
                .until(() -> health("/actuator/health/readiness").status() == 200);
    }

    private static BucketTimer timerOf(String jobId) {
        int buckets = gateway.bean(DelayProperties.class).getBuckets();
        return gateway.bean(TimerGroup.class).timers().get(Buckets.of(jobId, buckets));
    }

    /** Why health names the loop unwell, as the admin reads it; empty when it does not. */
    private static String unwell(BucketTimer timer) throws IOException, InterruptedException {
        JsonNode loops = health("/actuator/health").json().path("components").path("loops");
        return loops.path("details").path("unwell").path(timer.name()).asText("");
    }

    private static String loopsStatus(Reply health) {
        return health.json().path("components").path("loops").path("status").asText();
    }

    /** As the admin, who sees the details. */
    private static Reply health(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .header("Authorization", "Bearer " + TOKEN)
                .GET()
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), MAPPER.readTree(response.body()));
    }
}
