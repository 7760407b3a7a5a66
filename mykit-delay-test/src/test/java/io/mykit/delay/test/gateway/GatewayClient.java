package io.mykit.delay.test.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client for the gateway's API, as any service would call it. */
public final class GatewayClient {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public GatewayClient(String base) {
        this.base = base;
    }

    /** Status code and parsed JSON body of one call. */
    public record Reply(int status, JsonNode json) {
        public JsonNode data() {
            return json.path("data");
        }

        public boolean success() {
            return json.path("success").asBoolean(false);
        }

        @Override
        public String toString() {
            return status + " " + json;
        }
    }

    public Reply push(String jsonBody) {
        return send(HttpRequest.newBuilder(URI.create(base + "/push"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody)));
    }

    public Reply pushBatch(String jsonArray) {
        return send(HttpRequest.newBuilder(URI.create(base + "/push/batch"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonArray)));
    }

    public Reply raw(String method, String path, String contentType, String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        return send(builder.method(
                method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)));
    }

    public Reply get(String topic, long ttrMs, long timeoutMs) {
        return get("/get/" + topic + "?ttr=" + ttrMs + "&timeout=" + timeoutMs);
    }

    public Reply finish(String jobId) {
        return get("/finish?jobId=" + jobId);
    }

    public Reply delete(String jobId) {
        return get("/delete?jobId=" + jobId);
    }

    public Reply lookup(String jobId) {
        return get("/jobs/" + jobId);
    }

    /** For a failure message: each of {@code ids} not in {@code arrived}, as the gateway looks it up now. */
    public String notArrived(java.util.Collection<String> ids, java.util.Set<String> arrived) {
        StringBuilder text = new StringBuilder("not arrived:");
        ids.stream()
                .filter(id -> !arrived.contains(id))
                .forEach(id -> text.append("\n  ")
                        .append(id)
                        .append(": ")
                        .append(lookup(id).data()));
        return text.toString();
    }

    public Reply get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).GET());
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response =
                    http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), MAPPER.readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
