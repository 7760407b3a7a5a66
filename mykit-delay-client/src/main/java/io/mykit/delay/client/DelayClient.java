package io.mykit.delay.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client of one gateway: pushes, cancels, reschedules and looks up jobs over HTTP, and builds {@link DelayConsumer}s
 * that receive due jobs over a stream. Thread-safe; one instance serves a whole application.
 *
 * <pre>
 * try (DelayClient client = DelayClient.builder().baseUri("http://localhost:8080").token("...").build()) {
 *     String id = client.push(DelayJob.builder("order-close").body("42").delay(Duration.ofMinutes(30)).build());
 *     client.lookup(id).ifPresent(job -> System.out.println(job.status()));
 * }
 * </pre>
 *
 * <p>Calls are retried only where a second run cannot change the outcome: a push (every {@link DelayJob} carries its
 * id, so the gateway stores it once), a batch push, a look-up; after a refused connection, a lost answer, a 503 or a
 * 429, waiting as {@code Retry-After} asks or else backing off exponentially with jitter. A cancel or a reschedule is
 * retried only when nothing reached the gateway (refused connection, 429). Other refusals are thrown at once as
 * {@link DelayClientException}.
 */
public final class DelayClient implements AutoCloseable {
    private final HttpCalls calls;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final Set<DelayConsumer> consumers = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private DelayClient(Builder builder) {
        this.mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        this.clock = builder.clock;
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(builder.connectTimeout)
                .build();
        this.calls = new HttpCalls(
                http,
                builder.baseUri,
                builder.token,
                builder.requestTimeout,
                builder.maxRetries,
                new Backoff(builder.retryInitial, builder.retryMax),
                mapper,
                clock);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The gateway's base URI, ending with '/'. */
    public URI baseUri() {
        return calls.base();
    }

    /**
     * Pushes one job ({@code POST /push}); answers its id once the gateway journaled it. A repeated push is a no-op.
     */
    public String push(DelayJob job) {
        requireOpen();
        JsonNode data = calls.call("POST", "push", jobJson(job, clock.instant()), HttpCalls.Safety.IDEMPOTENT);
        return data.asText();
    }

    /**
     * Pushes up to the gateway's batch limit (1,000) of jobs in one transaction ({@code POST /push/batch}); answers
     * their ids in order. One bad job refuses them all ({@link DelayClientException#field()} names it,
     * {@code "[3].topic"}).
     */
    public List<String> pushAll(List<DelayJob> jobs) {
        requireOpen();
        if (jobs.isEmpty()) {
            return List.of();
        }
        Instant now = clock.instant();
        ArrayNode array = mapper.createArrayNode();
        jobs.forEach(job -> array.add(jobJson(job, now)));
        JsonNode data = calls.call("POST", "push/batch", array, HttpCalls.Safety.IDEMPOTENT);
        List<String> ids = new ArrayList<>(data.size());
        data.forEach(id -> ids.add(id.asText()));
        return ids;
    }

    /**
     * Cancels a job still waiting ({@code DELETE /jobs/{id}}). A job handed over already is refused with 409, an
     * unknown one with 404.
     */
    public void cancel(String id) {
        requireOpen();
        calls.call("DELETE", jobPath(id), null, HttpCalls.Safety.ONCE);
    }

    /**
     * Makes a waiting job due {@code delay} from now ({@code PUT /jobs/{id}}); answers its new due time. A job already
     * due or handed over is refused with 409.
     */
    public Instant reschedule(String id, Duration delay) {
        return reschedule(id, delay, null);
    }

    /** As {@link #reschedule(String, Duration)}, replacing the body too when {@code body} is not null. */
    public Instant reschedule(String id, Duration delay, String body) {
        requireOpen();
        ObjectNode change = mapper.createObjectNode().put("delay", delay.toMillis());
        if (body != null) {
            change.put("body", body);
        }
        JsonNode data = calls.call("PUT", jobPath(id), change, HttpCalls.Safety.ONCE);
        return Instant.ofEpochMilli(data.path("dueTime").asLong());
    }

    /** The job, its journal status and where Redis holds it ({@code GET /jobs/{id}}); empty for an unknown id. */
    public Optional<JobView> lookup(String id) {
        requireOpen();
        JsonNode data;
        try {
            data = calls.call("GET", jobPath(id), null, HttpCalls.Safety.IDEMPOTENT);
        } catch (DelayClientException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(new JobView(
                data.path("id").asText(),
                data.path("topic").asText(),
                textOrNull(data, "subtopic"),
                textOrNull(data, "bizKey"),
                textOrNull(data, "body"),
                data.path("tries").asInt(),
                data.path("attempts").asInt(),
                Instant.ofEpochMilli(data.path("createTime").asLong()),
                Instant.ofEpochMilli(data.path("dueTime").asLong()),
                textOrNull(data, "status"),
                textOrNull(data, "stage")));
    }

    /** A builder of a consumer of this gateway's stream; it uses this client's URI, token and timeouts. */
    public DelayConsumer.Builder consumer() {
        requireOpen();
        return new DelayConsumer.Builder(this);
    }

    /** Closes every consumer built from this client that is still open, then refuses further calls. */
    @Override
    public void close() {
        closed = true;
        for (DelayConsumer consumer : List.copyOf(consumers)) {
            consumer.close();
        }
    }

    /** Acknowledges jobs over HTTP ({@code POST /finish/batch}): finishes of jobs whose stream ended before them. */
    JsonNode finishAll(List<String> ids) {
        ArrayNode array = mapper.createArrayNode();
        ids.forEach(array::add);
        return calls.call("POST", "finish/batch", array, HttpCalls.Safety.IDEMPOTENT);
    }

    HttpCalls calls() {
        return calls;
    }

    ObjectMapper mapper() {
        return mapper;
    }

    Clock clock() {
        return clock;
    }

    void opened(DelayConsumer consumer) {
        consumers.add(consumer);
    }

    void closed(DelayConsumer consumer) {
        consumers.remove(consumer);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the client is closed");
        }
    }

    private ObjectNode jobJson(DelayJob job, Instant now) {
        ObjectNode json = mapper.createObjectNode().put("id", job.id()).put("topic", job.topic());
        putIfPresent(json, "subtopic", job.subtopic());
        putIfPresent(json, "bizKey", job.bizKey());
        json.put("delay", job.delayMillisAt(now));
        if (!job.priority().isZero()) {
            json.put("priority", job.priority().toMillis());
        }
        if (!job.ttl().isZero()) {
            json.put("ttl", job.ttl().toMillis());
        }
        if (job.tries() > 0) {
            json.put("tries", job.tries());
        }
        putIfPresent(json, "body", job.body());
        return json;
    }

    private static void putIfPresent(ObjectNode json, String field, String value) {
        if (value != null) {
            json.put(field, value);
        }
    }

    private static String jobPath(String id) {
        Objects.requireNonNull(id, "id");
        // an id the gateway could hold needs no escaping; anything else is refused here rather than sent as a path
        if (!Names.storedId(id)) {
            throw new IllegalArgumentException("not a job id: " + id);
        }
        return "jobs/" + id;
    }

    private static String textOrNull(JsonNode data, String field) {
        JsonNode value = data.path(field);
        return value.isNull() || value.isMissingNode() ? null : value.asText();
    }

    /** Builds a {@link DelayClient}. */
    public static final class Builder {
        private URI baseUri;
        private String token;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(30);
        private int maxRetries = 3;
        private Duration retryInitial = Duration.ofMillis(100);
        private Duration retryMax = Duration.ofSeconds(5);
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        /** The gateway, e.g. {@code http://delay.internal:8080} (a path prefix is kept: {@code http://h/delay/}). */
        public Builder baseUri(URI baseUri) {
            String text = Objects.requireNonNull(baseUri, "baseUri").toString();
            String scheme = baseUri.getScheme();
            if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
                throw new IllegalArgumentException("baseUri must be http or https: " + baseUri);
            }
            this.baseUri = URI.create(text.endsWith("/") ? text : text + "/");
            return this;
        }

        public Builder baseUri(String baseUri) {
            return baseUri(URI.create(baseUri));
        }

        /** A tenant's (or the admin's) token, sent as {@code Authorization: Bearer <token>}; null for none. */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /** How long a connection may take to open (default 5 s). */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive("connectTimeout", connectTimeout);
            return this;
        }

        /** How long one try of a call may wait for its answer (default 30 s). */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = positive("requestTimeout", requestTimeout);
            return this;
        }

        /** Tries after the first for a call that may be retried (default 3; 0 = never retry). */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /** The first and the longest wait between tries when the gateway names none (default 100 ms, 5 s). */
        public Builder retryBackoff(Duration initial, Duration max) {
            this.retryInitial = positive("initial", initial);
            this.retryMax = positive("max", max);
            return this;
        }

        Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock);
            return this;
        }

        public DelayClient build() {
            if (baseUri == null) {
                throw new IllegalStateException("baseUri is required");
            }
            new Backoff(retryInitial, retryMax);
            return new DelayClient(this);
        }

        static Duration positive(String name, Duration value) {
            if (Objects.requireNonNull(value, name).isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }
    }
}
