package io.mykit.delay.test.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test consumer of {@code GET /stream} on the JDK's WebSocket: it collects the server's frames (pings left out unless
 * asked for) and the close code. With {@code reading} false it never asks for a frame, as a consumer too slow to read.
 */
public final class StreamClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final LinkedBlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final List<JsonNode> pings = new ArrayList<>();
    private WebSocket socket;

    private StreamClient() {}

    /** Opens {@code ws://<gateway>/stream?<query>} with the given headers, reading every frame. */
    public static StreamClient open(String baseUrl, String query, Map<String, String> headers) {
        return open(baseUrl, query, headers, true);
    }

    public static StreamClient open(String baseUrl, String query) {
        return open(baseUrl, query, Map.of(), true);
    }

    /** {@link #open} that, without {@code reading}, never asks the server for a frame. */
    public static StreamClient open(String baseUrl, String query, Map<String, String> headers, boolean reading) {
        StreamClient client = new StreamClient();
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
        headers.forEach(builder::header);
        URI uri = URI.create(baseUrl.replace("http://", "ws://") + "/stream?" + query);
        client.socket = builder.buildAsync(uri, client.listener(reading)).join();
        return client;
    }

    /** The HTTP status a refused handshake was answered with. */
    public static int refusal(String baseUrl, String query, Map<String, String> headers) {
        try {
            open(baseUrl, query, headers).close();
        } catch (CompletionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException refused) {
                return refused.getResponse().statusCode();
            }
            throw e;
        }
        throw new AssertionError("the handshake was not refused: /stream?" + query);
    }

    private WebSocket.Listener listener(boolean reading) {
        return new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public void onOpen(WebSocket webSocket) {
                if (reading) {
                    webSocket.request(1);
                }
            }

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    try {
                        JsonNode frame = JSON.readTree(partial.toString());
                        if ("ping".equals(frame.path("type").asText())) {
                            synchronized (pings) {
                                pings.add(frame);
                            }
                        } else {
                            frames.add(frame);
                        }
                    } catch (Exception e) {
                        frames.add(JSON.createObjectNode()
                                .put("type", "unreadable")
                                .put("text", partial.toString()));
                    }
                    partial.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                closed.complete(-1);
            }
        };
    }

    /** Sends one text frame. */
    public void send(String json) {
        socket.sendText(json, true).join();
    }

    /** The next frame (pings left out), within a generous deadline. */
    public JsonNode next() {
        try {
            JsonNode frame = frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (frame == null) {
                throw new AssertionError("no frame within " + WAIT);
            }
            return frame;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The next frame of {@code type}; a frame of another type fails the test. */
    public JsonNode next(String type) {
        JsonNode frame = next();
        if (!type.equals(frame.path("type").asText())) {
            throw new AssertionError("expected a " + type + " frame, got " + frame);
        }
        return frame;
    }

    /**
     * The next frame of each of {@code types}, in whatever order they come: a released job due at once may be written
     * again before the release's answer. A frame of any other type fails the test.
     */
    public Map<String, JsonNode> nextOfEach(String... types) {
        Map<String, JsonNode> found = new java.util.LinkedHashMap<>();
        List<String> wanted = List.of(types);
        while (found.size() < wanted.size()) {
            JsonNode frame = next();
            String type = frame.path("type").asText();
            if (!wanted.contains(type) || found.putIfAbsent(type, frame) != null) {
                throw new AssertionError("expected one frame of each of " + wanted + ", got " + frame);
            }
        }
        return found;
    }

    /** A frame if one came within {@code wait}, else null. */
    public JsonNode poll(Duration wait) throws InterruptedException {
        return frames.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The ids of the next {@code jobs} frames, until {@code count} ids came. */
    public List<String> jobIds(int count) {
        List<String> ids = new ArrayList<>();
        while (ids.size() < count) {
            next("jobs").path("jobs").forEach(job -> ids.add(job.path("id").asText()));
        }
        return ids;
    }

    /** Pings received so far. */
    public int pings() {
        synchronized (pings) {
            return pings.size();
        }
    }

    /** The close code the server sent, once it came (-1: the connection broke). */
    public int closeCode() {
        return closed.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    /** Drops the connection without a close frame, as a crashed consumer. */
    public void abort() {
        socket.abort();
    }

    /** A clean close (1000). */
    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
        }
    }
}
