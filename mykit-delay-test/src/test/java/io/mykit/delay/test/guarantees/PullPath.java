package io.mykit.delay.test.guarantees;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.time.Duration;
import java.util.UUID;

/** The pull path as the guarantee tests drive it: a fresh topic, a push, a reservation, a journal status awaited. */
final class PullPath {

    private PullPath() {}

    static String topic(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Pushes {@code {"topic":..<fields>}} ({@code fields} starts with a comma, or is empty) and returns its id. */
    static String push(GatewayClient client, String topic, String fields) {
        Reply reply = client.push("{\"topic\":\"" + topic + "\"" + fields + "}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }

    static JsonNode reserve(GatewayClient client, String topic, long ttrMs) {
        Reply reply = client.get(topic, ttrMs, 10_000);
        assertThat(reply.data().isObject())
                .as("a job reserved from " + topic + ": " + reply)
                .isTrue();
        return reply.data();
    }

    static void awaitStatus(GatewayClient client, String id, JobStatus status) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("status").asText())
                                .as("journal status of " + id)
                                .isEqualTo(status.name()));
    }
}
