package io.mykit.delay.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EnvelopeTest {
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void a_success_carries_its_data() {
        Envelope envelope = read(200, "{\"success\":true,\"code\":200,\"message\":\"ok\",\"data\":\"id-1\"}");

        assertThat(envelope.success()).isTrue();
        assertThat(envelope.data().asText()).isEqualTo("id-1");
    }

    @Test
    void a_refusal_carries_status_message_and_field() {
        Envelope envelope = read(
                400,
                "{\"success\":false,\"code\":400,\"message\":\"topic: is required\",\"data\":null,"
                        + "\"field\":\"topic\"}");

        assertThat(envelope.success()).isFalse();
        assertThat(envelope.status()).isEqualTo(400);
        assertThat(envelope.message()).isEqualTo("topic: is required");
        assertThat(envelope.field()).isEqualTo("topic");
    }

    @Test
    void with_legacy_statuses_the_code_in_the_body_counts() {
        Envelope envelope = read(200, "{\"success\":false,\"code\":404,\"message\":\"no such job\",\"data\":null}");

        assertThat(envelope.success()).isFalse();
        assertThat(envelope.status()).isEqualTo(404);
    }

    @Test
    void an_answer_that_is_not_the_envelope_keeps_its_status_and_text() {
        Envelope envelope = read(502, "<html>Bad Gateway</html>");

        assertThat(envelope.success()).isFalse();
        assertThat(envelope.status()).isEqualTo(502);
        assertThat(envelope.message()).isEqualTo("<html>Bad Gateway</html>");
        assertThat(read(503, "").message()).isEqualTo("HTTP 503 without a body");
    }

    private Envelope read(int status, String body) {
        return Envelope.read(mapper, status, body.getBytes(StandardCharsets.UTF_8));
    }
}
