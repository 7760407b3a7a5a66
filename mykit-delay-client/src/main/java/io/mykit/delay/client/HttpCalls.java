package io.mykit.delay.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * One call to the gateway, retried while that is safe: a refusal before anything was done (connection refused, 429) is
 * retried for every call, a lost answer or a 503 only for calls that may run twice (GETs, pushes of client ids, batch
 * finishes). Waits honour {@code Retry-After}, else back off exponentially with jitter.
 */
final class HttpCalls {
    /** Whether a call may run twice with the same outcome. */
    enum Safety {
        IDEMPOTENT,
        ONCE
    }

    private final HttpClient http;
    private final URI base;
    private final String authorization;
    private final Duration requestTimeout;
    private final int maxRetries;
    private final Backoff backoff;
    private final ObjectMapper mapper;
    private final Clock clock;

    HttpCalls(
            HttpClient http,
            URI base,
            String token,
            Duration requestTimeout,
            int maxRetries,
            Backoff backoff,
            ObjectMapper mapper,
            Clock clock) {
        this.http = http;
        this.base = base;
        this.authorization = token == null ? null : "Bearer " + token;
        this.requestTimeout = requestTimeout;
        this.maxRetries = maxRetries;
        this.backoff = backoff;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** The {@code Authorization} header value, or null without a token. */
    String authorization() {
        return authorization;
    }

    HttpClient http() {
        return http;
    }

    URI base() {
        return base;
    }

    /**
     * The envelope's {@code data} of a call answered 2xx; a refusal raises {@link DelayClientException} with its status
     * and message, once the retries allowed for {@code safety} are spent.
     */
    JsonNode call(String method, String path, Object body, Safety safety) {
        HttpRequest request = request(method, path, body);
        for (int failures = 0; ; failures++) {
            Attempt attempt = attempt(request, safety);
            if (attempt.result != null) {
                return attempt.result;
            }
            if (attempt.retryable == null || failures >= maxRetries) {
                throw attempt.failure;
            }
            Duration wait = attempt.retryable.isPresent() ? attempt.retryable.get() : backoff.delay(failures);
            sleep(wait, attempt.failure);
        }
    }

    private HttpRequest request(String method, String path, Object body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .timeout(requestTimeout)
                .header("Accept", "application/json");
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        if (body == null) {
            return builder.method(method, HttpRequest.BodyPublishers.noBody()).build();
        }
        try {
            byte[] json = mapper.writeValueAsBytes(body);
            return builder.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json))
                    .build();
        } catch (IOException notSerializable) {
            throw new IllegalArgumentException("cannot write the request body as JSON", notSerializable);
        }
    }

    /**
     * One try: a result, or a failure and, when another try is allowed, the wait the gateway asked for (empty: back
     * off).
     */
    private record Attempt(JsonNode result, DelayClientException failure, Optional<Duration> retryable) {}

    private Attempt attempt(HttpRequest request, Safety safety) {
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            boolean notSent = e instanceof ConnectException || e instanceof HttpConnectTimeoutException;
            DelayClientException failure = new DelayClientException(0, String.valueOf(e), null, e);
            boolean retry = notSent || safety == Safety.IDEMPOTENT;
            return new Attempt(null, failure, retry ? Optional.empty() : null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DelayClientException(0, "interrupted", null, e);
        }
        Envelope envelope = Envelope.read(mapper, response.statusCode(), response.body());
        if (envelope.success()) {
            return new Attempt(envelope.data(), null, null);
        }
        DelayClientException failure =
                new DelayClientException(envelope.status(), envelope.message(), envelope.field(), null);
        Optional<Duration> asked =
                RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), clock.instant());
        boolean retry = envelope.status() == 429 || (envelope.status() == 503 && safety == Safety.IDEMPOTENT);
        return new Attempt(null, failure, retry ? asked : null);
    }

    private static void sleep(Duration wait, DelayClientException pending) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pending.addSuppressed(e);
            throw pending;
        }
    }
}
