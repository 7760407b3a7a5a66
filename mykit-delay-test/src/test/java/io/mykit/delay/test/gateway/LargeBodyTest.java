package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bodies far larger than a route takes never reach memory: a caller the gateway will refuse is refused before its body
 * is read, an array longer than limits.max-batch-size is refused while it is still coming, and bodies in flight beyond
 * mykit.delay.http.max-body-bytes-in-flight are refused at once. Each request here sends its head and a small first
 * part of a body declared at tens of megabytes, then waits for the answer: it can only come before the body is read.
 */
class LargeBodyTest {
    private static final String TOKEN = "orders-token";
    private static final int WAIT_MS = 20_000;
    private static final long THIRTY_MB = 30_000_000;

    @Gateway({
        "mykit.delay.tenants.orders.token=" + TOKEN,
        "mykit.delay.tenants.orders.topics=order-*",
        "mykit.delay.admin.token=large-body-admin"
    })
    private static TestGateway gateway;

    private static int port;

    @BeforeAll
    static void port() {
        port = URI.create(gateway.baseUrl()).getPort();
    }

    private static byte[] repeat(String element, int count) {
        return ("[" + element.repeat(count)).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void a_body_far_over_any_limit_is_refused_before_it_is_read_without_a_token_or_with_a_bad_one() throws Exception {
        List<String> answers = new ArrayList<>();
        for (Map<String, String> credentials :
                List.of(Map.<String, String>of(), Map.of("Authorization", "Bearer nope"))) {
            for (String route : List.of("/push", "/push/batch", "/finish/batch", "/dead/order-x/respawn")) {
                try (PartialUpload upload =
                        PartialUpload.start(port, "POST", route, credentials, THIRTY_MB, repeat("{},", 20_000))) {
                    PartialUpload.Answer answer = upload.answer(WAIT_MS);
                    assertThat(answer).as(route + " " + credentials).isNotNull();
                    assertThat(answer.status()).as(route + " " + credentials).isIn(401, 413);
                    assertThat(answer.body()).as(route).contains("\"success\":false");
                    answers.add(route + " " + answer.status());
                }
            }
        }
        assertThat(answers)
                .as("the routes that take large bodies refuse the caller, not the size")
                .contains("/push/batch 401", "/dead/order-x/respawn 401");
        assertThat(gateway.client().get("/actuator/health").status()).isEqualTo(200);
    }

    @Test
    void an_array_longer_than_max_batch_size_is_refused_while_the_rest_of_it_is_still_unsent() throws Exception {
        Map<String, String> token = Map.of("Authorization", "Bearer " + TOKEN);
        try (PartialUpload upload =
                PartialUpload.start(port, "POST", "/push/batch", token, THIRTY_MB, repeat("{},", 100_000))) {
            PartialUpload.Answer answer = upload.answer(WAIT_MS);
            assertThat(answer).isNotNull();
            assertThat(answer.status()).as(answer.body()).isIn(400, 413);
            assertThat(answer.body()).contains("at most 1000");
        }
        try (PartialUpload upload =
                PartialUpload.start(port, "POST", "/finish/batch", token, 700_000, repeat("\"a\",", 20_000))) {
            PartialUpload.Answer answer = upload.answer(WAIT_MS);
            assertThat(answer).isNotNull();
            assertThat(answer.status()).as(answer.body()).isIn(400, 413);
            assertThat(answer.body()).contains("1..1000");
        }
        assertThat(gateway.client().get("/actuator/health").status()).isEqualTo(200);
    }

    @Test
    void bodies_beyond_the_in_flight_budget_are_refused_at_once_and_the_gateway_keeps_answering(
            @Gateway({
                        "mykit.delay.http.max-body-bytes-in-flight=1048576",
                        "mykit.delay.http.body-read-timeout=2s",
                        "server.tomcat.connection-timeout=3s"
                    })
                    TestGateway small)
            throws Exception {
        int smallPort = URI.create(small.baseUrl()).getPort();
        byte[] start = "[{\"topic\":\"t\",\"delay\":60000},".getBytes(StandardCharsets.US_ASCII);
        List<PartialUpload> uploads = new ArrayList<>();
        List<Integer> statuses = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                uploads.add(PartialUpload.start(smallPort, "POST", "/push/batch", Map.of(), 600_000, start));
            }
            int retryAfter = 0;
            for (PartialUpload upload : uploads) {
                PartialUpload.Answer answer = upload.answer(WAIT_MS);
                statuses.add(answer == null ? -1 : answer.status());
                if (answer != null && answer.status() == 503 && answer.header("Retry-After") != null) {
                    retryAfter++;
                }
            }
            assertThat(retryAfter)
                    .as("answers 503 with Retry-After among " + statuses)
                    .isGreaterThanOrEqualTo(7);
            assertThat(statuses).as("the one read answers 408 or is closed").containsAnyOf(408, -1);
        } finally {
            for (PartialUpload upload : uploads) {
                upload.close();
            }
        }
        assertThat(small.client().get("/actuator/health").status()).isEqualTo(200);
        assertThat(small.client().push("{\"topic\":\"t\",\"delay\":60000}").status())
                .isEqualTo(200);
    }
}
