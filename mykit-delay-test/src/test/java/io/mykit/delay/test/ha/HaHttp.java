package io.mykit.delay.test.ha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * JSON over HTTP with a deadline on every call: a frozen or dead gateway costs its caller the deadline, never a hang.
 * No answer in time is an {@link IOException}, as a refused connection is.
 */
final class HaHttp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

    /** Status and parsed body of one answer. */
    record Answer(int status, JsonNode json) {

        JsonNode data() {
            return json.path("data");
        }

        boolean ok() {
            return status == 200 && json.path("success").asBoolean(false);
        }

        @Override
        public String toString() {
            return status + " " + json;
        }
    }

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();

    Answer get(String url, Duration timeout) throws IOException {
        return send(
                HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build());
    }

    Answer post(String url, String json, Duration timeout) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /** A GET answered later; fails with an IOException (in the future) when there is no answer in time. */
    CompletableFuture<Answer> getAsync(String url, Duration timeout) {
        return client.sendAsync(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(timeout)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .thenApply(HaHttp::parse);
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + value + " as JSON", e);
        }
    }

    private Answer send(HttpRequest request) throws IOException {
        try {
            return parse(client.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while calling " + request.uri(), e);
        }
    }

    private static Answer parse(HttpResponse<String> response) {
        try {
            return new Answer(response.statusCode(), JSON.readTree(response.body()));
        } catch (IOException e) {
            // a body that is not JSON (a proxy's page, a truncated answer) is still an answer worth reporting
            return new Answer(response.statusCode(), JSON.getNodeFactory().textNode(response.body()));
        }
    }
}
