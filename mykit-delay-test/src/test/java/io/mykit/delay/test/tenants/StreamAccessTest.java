package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.RawHttp;
import io.mykit.delay.test.gateway.StreamClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may open GET /stream: refusals at the handshake as plain HTTP with the JSON error body (400, 401, 403, 429), a
 * browser's handshake from another origin refused, and a stream whose token a tenants reload took out closed (1008).
 */
class StreamAccessTest {
    private static final String ORDERS = "orders-token";
    private static final String MAIL = "mail-token";

    @Gateway({
        "mykit.delay.tenants.orders.token=" + ORDERS,
        "mykit.delay.tenants.orders.topics=ord-*",
        "mykit.delay.tenants.orders.max-streams=2",
        "mykit.delay.tenants.mail.token=" + MAIL,
        "mykit.delay.tenants.mail.topics=mail-*",
        "mykit.delay.stream.max-topics=3",
        "mykit.delay.stream.max-credit=50",
        "mykit.delay.dispatch.routes[mail-logged]=log",
        "mykit.delay.dispatch.routes[ord-logged]=log"
    })
    private static TestGateway gateway;

    @TempDir
    Path dir;

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    private static int refusal(String query, Map<String, String> headers) {
        return StreamClient.refusal(gateway.baseUrl(), query, headers);
    }

    @Test
    void bad_handshakes_are_refused_as_http_with_the_json_error_body() throws Exception {
        assertThat(refusal("topics=ord-a", Map.of())).as("no token").isEqualTo(401);
        assertThat(refusal("topics=ord-a", bearer("nobody")))
                .as("unknown token")
                .isEqualTo(401);
        assertThat(refusal("topics=ord-a,mail-a", bearer(ORDERS)))
                .as("foreign topic")
                .isEqualTo(403);
        assertThat(refusal("topics=mail-logged", bearer(ORDERS)))
                .as("foreign topic, whatever it is routed to")
                .isEqualTo(403);
        assertThat(refusal("topics=ord-logged", bearer(ORDERS)))
                .as("own topic routed to the log")
                .isEqualTo(409);
        assertThat(refusal("credit=5", bearer(ORDERS))).as("no topics").isEqualTo(400);
        assertThat(refusal("topics=ord-a,ord-b,ord-c,ord-d", bearer(ORDERS)))
                .as("past max-topics")
                .isEqualTo(400);
        assertThat(refusal("topics=ord-a&credit=0", bearer(ORDERS)))
                .as("credit 0")
                .isEqualTo(400);
        assertThat(refusal("topics=ord-a&credit=51", bearer(ORDERS)))
                .as("past max-credit")
                .isEqualTo(400);
        assertThat(refusal("topics=ord-a&credit=lots", bearer(ORDERS)))
                .as("credit no number")
                .isEqualTo(400);
        assertThat(refusal("topics=ord-a&ttr=0", bearer(ORDERS))).as("ttr 0").isEqualTo(400);
        assertThat(refusal("topics=ord%20a", bearer(ORDERS)))
                .as("no topic name")
                .isEqualTo(400);

        int port =
                Integer.parseInt(gateway.baseUrl().substring(gateway.baseUrl().lastIndexOf(':') + 1));
        RawHttp.Answer answer = RawHttp.send(
                "127.0.0.1", port, "GET", "/stream?topics=mail-a", Map.of("Authorization", "Bearer " + ORDERS), null);
        assertThat(answer.status()).isEqualTo(403);
        JsonNode body = new ObjectMapper().readTree(answer.body());
        assertThat(body.path("success").asBoolean()).isFalse();
        assertThat(body.path("code").asInt()).isEqualTo(403);
        assertThat(body.path("message").asText()).contains("mail-a");
    }

    @Test
    void a_tenant_opens_at_most_its_max_streams_and_a_closed_one_frees_its_slot() {
        StreamClient one = StreamClient.open(gateway.baseUrl(), "topics=ord-x", bearer(ORDERS));
        StreamClient two = StreamClient.open(gateway.baseUrl(), "topics=ord-y", bearer(ORDERS));
        assertThat(refusal("topics=ord-z", bearer(ORDERS))).isEqualTo(429);
        // another tenant's share is its own
        StreamClient mail = StreamClient.open(gateway.baseUrl(), "topics=mail-x", bearer(MAIL));
        one.close();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
            StreamClient.open(gateway.baseUrl(), "topics=ord-z", bearer(ORDERS)).close();
            return true;
        });
        two.close();
        mail.close();
    }

    @Test
    void the_node_opens_at_most_max_streams(@Gateway("mykit.delay.stream.max-streams=1") TestGateway own) {
        StreamClient one = StreamClient.open(own.baseUrl(), "topics=any");
        assertThat(StreamClient.refusal(own.baseUrl(), "topics=other", Map.of()))
                .isEqualTo(429);
        one.close();
    }

    @Test
    void a_browser_handshake_from_another_origin_is_refused(@Gateway TestGateway open) {
        assertThat(StreamClient.refusal(open.baseUrl(), "topics=any", Map.of("Origin", "http://evil.example")))
                .isEqualTo(403);
        assertThat(StreamClient.refusal(
                        open.baseUrl(), "topics=any", Map.of("Origin", "http://127.0.0.1:1", "Sec-Fetch-Site", "x")))
                .isEqualTo(403);
        // the gateway's own origin (a page it served) may
        StreamClient.open(open.baseUrl(), "topics=any", Map.of("Origin", open.baseUrl()))
                .close();
    }

    @Test
    void a_stream_whose_token_a_reload_took_out_is_closed_1008_and_its_jobs_go_back() throws Exception {
        String topic = "rev-" + UUID.randomUUID().toString().substring(0, 8);
        Path file = dir.resolve("tenants.properties");
        Files.writeString(file, """
                mykit.delay.tenants.orders.tokens=old-token,new-token
                mykit.delay.tenants.orders.topics=rev-*
                """);
        try (TestGateway own = TestGateway.start("mykit.delay.tenants-file=" + file)) {
            TenantHttp http = new TenantHttp(own.baseUrl());
            String id = http.push("new-token", topic, "k", 0);
            StreamClient stream = StreamClient.open(own.baseUrl(), "topics=" + topic, bearer("old-token"));
            assertThat(stream.jobIds(1)).containsExactly(id);

            Files.writeString(file, """
                    mykit.delay.tenants.orders.tokens=new-token
                    mykit.delay.tenants.orders.topics=rev-*
                    """);
            assertThat(stream.closeCode()).isEqualTo(1008);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> http.call("new-token", "GET", "/get/" + topic + "?ttr=30000&timeout=500", null)
                            .json()
                            .path("data")
                            .path("id")
                            .asText()
                            .equals(id));
        }
    }
}
