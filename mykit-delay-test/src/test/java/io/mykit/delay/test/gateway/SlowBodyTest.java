package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Clients that send their bodies a byte at a time cannot take every request thread: more slow uploads than the server
 * has threads, and health still answers; each slow upload is answered (408, or 503 when the threads that may read
 * bodies are all taken) or closed. A refused caller's slow body is not read at all: its connection is closed.
 */
class SlowBodyTest {
    private static final int THREADS = 6;
    private static final int SLOW = 12;

    @Test
    void slow_bodies_leave_threads_for_health_and_are_cut_off(
            @Gateway({
                        "server.tomcat.threads.max=" + THREADS,
                        "server.tomcat.threads.min-spare=2",
                        "mykit.delay.http.body-read-timeout=2s"
                    })
                    TestGateway gateway)
            throws Exception {
        int port = URI.create(gateway.baseUrl()).getPort();
        List<PartialUpload> uploads = new ArrayList<>();
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try {
            for (int i = 0; i < SLOW; i++) {
                uploads.add(PartialUpload.start(
                        port, "POST", "/push", Map.of(), 1000, "{".getBytes(StandardCharsets.US_ASCII)));
            }
            // one byte per upload every 250 ms: each read of a body gets something long before any read timeout
            trickle.scheduleWithFixedDelay(() -> sendOneByteEach(uploads), 250, 250, TimeUnit.MILLISECONDS);

            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(30))
                    .build();
            HttpResponse<String> health = http.send(
                    HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/actuator/health"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);

            List<String> outcomes = new ArrayList<>();
            for (PartialUpload upload : uploads) {
                PartialUpload.Answer answer = answerOrClosed(upload);
                outcomes.add(answer == null ? "closed" : Integer.toString(answer.status()));
            }
            assertThat(outcomes)
                    .as("every slow upload answered or closed")
                    .allMatch(outcome -> List.of("408", "503", "closed").contains(outcome));
            assertThat(outcomes).as("some were read and cut off").containsAnyOf("408", "closed");
        } finally {
            trickle.shutdownNow();
            for (PartialUpload upload : uploads) {
                upload.close();
            }
        }
        assertThat(gateway.client().push("{\"topic\":\"slow\",\"delay\":60000}").status())
                .isEqualTo(200);
    }

    @Test
    void slow_bodies_of_refused_callers_are_not_drained_on_request_threads(
            @Gateway({
                        "server.tomcat.threads.max=" + THREADS,
                        "server.tomcat.threads.min-spare=2",
                        "mykit.delay.tenants.orders.token=orders-token",
                        "mykit.delay.tenants.orders.topics=order-*"
                    })
                    TestGateway gateway)
            throws Exception {
        int port = URI.create(gateway.baseUrl()).getPort();
        List<PartialUpload> uploads = new ArrayList<>();
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try {
            for (int i = 0; i < SLOW; i++) {
                uploads.add(PartialUpload.start(
                        port,
                        "POST",
                        "/push/batch",
                        Map.of("Authorization", "Bearer wrong"),
                        100_000,
                        "[".getBytes(StandardCharsets.US_ASCII)));
            }
            trickle.scheduleWithFixedDelay(() -> sendOneByteEach(uploads), 250, 250, TimeUnit.MILLISECONDS);
            for (PartialUpload upload : uploads) {
                PartialUpload.Answer answer = answerOrClosed(upload);
                assertThat(answer == null ? "closed" : Integer.toString(answer.status()))
                        .isIn("401", "closed");
            }
            HttpResponse<String> health = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/actuator/health"))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
        } finally {
            trickle.shutdownNow();
            for (PartialUpload upload : uploads) {
                upload.close();
            }
        }
    }

    private static void sendOneByteEach(List<PartialUpload> uploads) {
        for (PartialUpload upload : uploads) {
            try {
                upload.send(new byte[] {' '});
            } catch (IOException closed) {
                // the server has closed it: nothing more to send there
            }
        }
    }

    private static PartialUpload.Answer answerOrClosed(PartialUpload upload) throws IOException {
        try {
            return upload.answer(30_000);
        } catch (java.net.SocketException reset) {
            return null;
        }
    }
}
