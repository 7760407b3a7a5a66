package io.mykit.delay.test.tenants;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Calls to the gateway as a service with a token would make them (null token: no Authorization header). */
final class TenantHttp {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    TenantHttp(String base) {
        this.base = base;
    }

    /** Status, WWW-Authenticate and Retry-After headers (null when absent) and the body of one call. */
    record Answer(int status, String wwwAuthenticate, String retryAfter, String body) {
        JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        JsonNode data() {
            return json().path("data");
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    Answer call(String token, String method, String path, String jsonBody) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60))
                .method(
                        method,
                        jsonBody == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(jsonBody));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(
                    response.statusCode(),
                    response.headers().firstValue("WWW-Authenticate").orElse(null),
                    response.headers().firstValue("Retry-After").orElse(null),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Pushes one job; answers its id, failing loudly when the push is refused. */
    String push(String token, String topic, String bizKey, long delayMs) {
        Answer answer = call(
                token,
                "POST",
                "/push",
                "{\"topic\":\"" + topic + "\",\"bizKey\":\"" + bizKey + "\",\"delay\":" + delayMs + ",\"body\":\"b\"}");
        if (answer.status() != 200) {
            throw new AssertionError("push refused: " + answer);
        }
        return answer.data().asText();
    }

    /**
     * Pushes a job with one try, reserves it and releases it, so that it is dead, and waits until the dead-letter list
     * shows it; answers its id.
     */
    String bury(String token, String topic) {
        Answer pushed =
                call(token, "POST", "/push", "{\"topic\":\"" + topic + "\",\"delay\":0,\"tries\":1,\"body\":\"b\"}");
        if (pushed.status() != 200) {
            throw new AssertionError("push refused: " + pushed);
        }
        String id = pushed.data().asText();
        Answer got = call(token, "GET", "/get/" + topic + "?ttr=60000&timeout=10000", null);
        if (!id.equals(got.data().path("id").asText())) {
            throw new AssertionError("not reserved: " + got);
        }
        Answer released = call(token, "POST", "/release?jobId=" + id, null);
        if (!released.data().path("dead").asBoolean()) {
            throw new AssertionError("not dead: " + released);
        }
        // the dead letter is listed once its journal row says so
        await().atMost(Duration.ofSeconds(30))
                .until(() -> call(token, "GET", "/dead/" + topic, null)
                        .data()
                        .toString()
                        .contains(id));
        return id;
    }
}
