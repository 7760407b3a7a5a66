package io.mykit.delay.test.operator;

import io.mykit.delay.test.gateway.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain GETs as an operator's script makes them, with the admin token or (null) without; any body, not only JSON. */
final class Admin {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    record Answer(int status, String body) {}

    /** {@code token} null: no Authorization header. */
    static Answer get(TestGateway gateway, String pathAndQuery, String token) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + pathAndQuery))
                    .timeout(Duration.ofSeconds(60))
                    .GET();
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
