package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/** Closing a stream never waits for the close frame: a consumer that stopped reading holds only the closer thread. */
class StreamConnectionCloseTest {

    @Test
    void a_close_returns_while_the_close_frame_is_still_blocked() throws Exception {
        CountDownLatch frameMayGo = new CountDownLatch(1);
        CompletableFuture<CloseStatus> sent = new CompletableFuture<>();
        WebSocketSession session = blockingSession(frameMayGo, sent);
        ExecutorService closer = Executors.newSingleThreadExecutor();
        try {
            StreamConnection connection = connection(session, closer);
            CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> connection.close(StreamConnection.SLOW));

            // the frame is held until the close call has returned: a close that waits for it never returns
            closed.get(30, TimeUnit.SECONDS);
            assertThat(sent).isNotDone();
            frameMayGo.countDown();
            assertThat(sent.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(4429);
        } finally {
            frameMayGo.countDown();
            closer.shutdownNow();
        }
    }

    @Test
    void a_second_close_sends_nothing_more() throws Exception {
        AtomicReference<Integer> frames = new AtomicReference<>(0);
        WebSocketSession session = (WebSocketSession) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {WebSocketSession.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        frames.updateAndGet(n -> n + 1);
                    }
                    return method.getName().equals("getId") ? "s" : null;
                });
        StreamConnection connection = connection(session, Runnable::run);

        connection.close(StreamConnection.SLOW);
        connection.close(StreamConnection.IDLE);

        assertThat(frames.get()).isEqualTo(1);
    }

    private static WebSocketSession blockingSession(CountDownLatch frameMayGo, CompletableFuture<CloseStatus> sent) {
        return (WebSocketSession) Proxy.newProxyInstance(
                StreamConnectionCloseTest.class.getClassLoader(),
                new Class<?>[] {WebSocketSession.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && args != null && args.length == 1) {
                        frameMayGo.await();
                        sent.complete((CloseStatus) args[0]);
                    }
                    return method.getName().equals("getId") ? "s" : null;
                });
    }

    private static StreamConnection connection(WebSocketSession session, java.util.concurrent.Executor closer) {
        StreamSettings settings = new StreamSettings(8, 4, 100, 5_000, 15_000, 10_000, 1 << 20, 1 << 16, 100);
        StreamRequest request = new StreamRequest(null, List.of("t"), 10, 60_000, () -> true, () -> {});
        return new StreamConnection(session, null, request, null, new ObjectMapper(), settings, null, () -> 0L, closer);
    }
}
