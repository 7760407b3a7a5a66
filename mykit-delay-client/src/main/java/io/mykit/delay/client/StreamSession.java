package io.mykit.delay.client;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One open stream: reads the gateway's frames into its engine, writes the consumer's frames one at a time (a WebSocket
 * takes one outstanding send), and remembers the jobs the gateway wrote to it. Once it ended, the gateway has given
 * back every job it held, so none of them may be started, and acknowledgements can no longer go through it.
 */
final class StreamSession implements WebSocket.Listener {
    /** What the session tells its engine. */
    interface Events {
        void opened(StreamSession session);

        void frame(StreamSession session, String text);

        void ended(StreamSession session, int code, String reason);
    }

    private final Events events;
    private final Map<String, HeldJob> held = new ConcurrentHashMap<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final CompletableFuture<Void> endedFuture = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    private final Object sendLock = new Object();
    private CompletableFuture<?> sends = CompletableFuture.completedFuture(null);
    private volatile WebSocket socket;
    private volatile long lastHeardNanos;
    private volatile boolean heardAnything;

    StreamSession(Events events) {
        this.events = events;
        this.lastHeardNanos = System.nanoTime();
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        socket = webSocket;
        lastHeardNanos = System.nanoTime();
        events.opened(this);
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        heard();
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            events.frame(this, text);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        // the stream speaks text; a binary frame is something newer this client ignores
        heard();
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
        // the JDK answers a control ping with a pong itself
        heard();
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
        heard();
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        end(statusCode, reason);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        end(0, String.valueOf(error));
    }

    /** Ends the session (once): the engine is told, and nothing more is sent on it. */
    void end(int code, String reason) {
        if (ended.compareAndSet(false, true)) {
            WebSocket open = socket;
            if (open != null) {
                open.abort();
            }
            events.ended(this, code, reason);
            endedFuture.complete(null);
        }
    }

    boolean ended() {
        return ended.get();
    }

    /** Whether any frame came since the stream opened: it worked, and a failure after it is a first one. */
    boolean heardAnything() {
        return heardAnything;
    }

    long lastHeardNanos() {
        return lastHeardNanos;
    }

    void hold(HeldJob job) {
        held.put(job.id(), job);
    }

    void forget(String id) {
        held.remove(id);
    }

    Collection<HeldJob> held() {
        return held.values();
    }

    /** Sends {@code text} after every frame sent before it; false when the session ended already. */
    boolean send(String text) {
        synchronized (sendLock) {
            if (ended.get() || socket == null) {
                return false;
            }
            WebSocket open = socket;
            sends = sends.handle((done, failed) -> null).thenCompose(ignored -> open.sendText(text, true));
            sends.whenComplete((done, failed) -> {
                if (failed != null) {
                    end(0, "send failed: " + failed);
                }
            });
            return true;
        }
    }

    /**
     * Closes the stream normally after every frame sent so far, waiting up to {@code waitMillis} for the gateway's
     * answer; a stream that does not close in time is cut.
     */
    void close(long waitMillis) {
        CompletableFuture<?> closed;
        synchronized (sendLock) {
            WebSocket open = socket;
            if (ended.get() || open == null) {
                return;
            }
            closed = sends.handle((done, failed) -> null)
                    .thenCompose(ignored -> open.sendClose(WebSocket.NORMAL_CLOSURE, "consumer closing"));
            sends = closed;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        try {
            closed.get(waitMillis, TimeUnit.MILLISECONDS);
            // the gateway answers the close; its onClose ends the session
            endedFuture.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException notClosed) {
            // cut below
        }
        end(WebSocket.NORMAL_CLOSURE, "consumer closing");
    }

    private void heard() {
        lastHeardNanos = System.nanoTime();
        heardAnything = true;
    }
}
