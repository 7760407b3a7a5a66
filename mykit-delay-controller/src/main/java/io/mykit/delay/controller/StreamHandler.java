package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.queue.service.DelayQueueService;
import jakarta.websocket.Session;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.NativeWebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * {@code GET /stream}: the WebSocket side of streams. Each connection {@link StreamHandshake} admitted becomes a
 * {@link StreamConnection}; one timer thread runs every connection's heartbeat, idle and send checks. At most
 * {@code stream.max-streams} connections are open at once on the node ({@link #takeSlot}).
 */
public class StreamHandler extends TextWebSocketHandler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StreamHandler.class);
    private static final String BLOCKING_SEND_TIMEOUT = "org.apache.tomcat.websocket.BLOCKING_SEND_TIMEOUT";

    private final DelayQueueService queue;
    private final ObjectMapper mapper;
    private final StreamSettings settings;
    private final TenantEvents events;
    private final AtomicInteger slots = new AtomicInteger();
    private final Map<String, StreamConnection> connections = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final ExecutorService closer;

    public StreamHandler(DelayQueueService queue, ObjectMapper mapper, StreamSettings settings, TenantEvents events) {
        this.queue = queue;
        this.mapper = mapper;
        this.settings = settings;
        this.events = events;
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "mykit-stream-timer");
            thread.setDaemon(true);
            return thread;
        });
        // two threads: a close frame to a consumer that stopped reading blocks one for up to the blocking send timeout
        this.closer = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread thread = new Thread(task, "mykit-stream-closer");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(this::tick, settings.tickMs(), settings.tickMs(), TimeUnit.MILLISECONDS);
    }

    /** Takes one of the node's stream slots, or throws 429; the runnable gives it back, once. */
    Runnable takeSlot() {
        if (slots.incrementAndGet() > settings.maxStreams()) {
            slots.decrementAndGet();
            throw StreamHandshake.tooManyStreams(settings.maxStreams());
        }
        AtomicBoolean given = new AtomicBoolean();
        return () -> {
            if (given.compareAndSet(false, true)) {
                slots.decrementAndGet();
            }
        };
    }

    /** Streams open on this node right now. */
    public int openStreams() {
        return connections.size();
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) throws Exception {
        StreamRequest request = (StreamRequest) session.getAttributes().get(StreamRequest.ATTRIBUTE);
        session.setTextMessageSizeLimit(settings.maxFrameBytes());
        Session endpoint = ((NativeWebSocketSession) session).getNativeSession(Session.class);
        // the close frame to a consumer that stopped reading waits at most this long (Tomcat's blocking send)
        endpoint.getUserProperties().put(BLOCKING_SEND_TIMEOUT, Math.min(settings.sendTimeoutMs(), 2_000L));
        StreamOutbox outbox =
                new StreamOutbox(endpoint.getAsyncRemote(), settings.maxSendBufferBytes(), System::currentTimeMillis);
        StreamConnection connection = new StreamConnection(
                session, outbox, request, queue, mapper, settings, events, System::currentTimeMillis, closer);
        connections.put(session.getId(), connection);
        try {
            connection.open();
        } catch (RuntimeException e) {
            log.warn("stream not opened: {}", e.toString());
            connections.remove(session.getId());
            request.slots().run();
            session.close(CloseStatus.SERVER_ERROR);
        }
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) {
        StreamConnection connection = connections.get(session.getId());
        if (connection != null) {
            connection.received(message.getPayload());
        }
    }

    @Override
    public void handleTransportError(WebSocketSession session, Throwable exception) {
        log.debug("stream transport error: {}", exception.toString());
        ended(session);
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        ended(session);
    }

    private void ended(WebSocketSession session) {
        StreamConnection connection = connections.remove(session.getId());
        if (connection != null) {
            connection.end();
        }
    }

    /** Streams whose caller lost its right to their topics at a tenants reload end now (1008). */
    public void endRevoked() {
        List.copyOf(connections.values()).forEach(connection -> {
            if (connection.revoked()) {
                connection.close(CloseStatus.POLICY_VIOLATION);
            }
        });
    }

    private void tick() {
        for (StreamConnection connection : connections.values()) {
            try {
                connection.tick();
            } catch (RuntimeException e) {
                log.warn("stream check failed: {}", e.toString());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        closer.shutdown();
    }
}
