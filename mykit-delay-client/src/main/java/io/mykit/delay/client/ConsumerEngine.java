package io.mykit.delay.client;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a {@link DelayConsumer}: keeps one stream open (opening it anew with back-off whenever it ends), hands the jobs
 * it writes to the handler pool, pings the gateway and cuts a stream that went silent, touches held jobs at half their
 * ttr, and shuts down in order.
 *
 * <pre>
 * CLOSED --start--> CONNECTING --open--> CONNECTED --ended--> CONNECTING (after a back-off) ...
 *                                          any --close()--> no new job, handlers drain, finishes flushed, CLOSED
 * </pre>
 */
final class ConsumerEngine implements StreamSession.Events {
    private static final System.Logger LOG = System.getLogger(DelayConsumer.class.getName());
    private static final AtomicInteger CONSUMERS = new AtomicInteger();
    private static final long CLOSE_HANDSHAKE_MILLIS = 5_000;
    private static final long MIN_TOUCH_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final ConsumerSettings settings;
    private final Frames frames;
    private final Listeners listeners;
    private final ScheduledExecutorService timer;
    private final ThreadPoolExecutor handlers;
    private final ExecutorService fallback;
    private final Acknowledger acknowledger;
    private final JobRunner runner;
    private final Object lifecycle = new Object();
    private volatile ConsumerState state = ConsumerState.CLOSED;
    private volatile boolean started;
    private volatile boolean stopping;
    private volatile StreamSession current;
    private final AtomicInteger failuresInRow = new AtomicInteger();

    ConsumerEngine(ConsumerSettings settings) {
        this.settings = settings;
        this.frames = new Frames(settings.client().mapper());
        this.listeners = new Listeners(settings.listener());
        String name = "mykit-delay-consumer-" + CONSUMERS.incrementAndGet();
        this.timer = Executors.newSingleThreadScheduledExecutor(threads(name + "-timer"));
        this.handlers = new ThreadPoolExecutor(
                settings.concurrency(),
                settings.concurrency(),
                0,
                TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(),
                threads(name + "-handler"));
        this.fallback = Executors.newSingleThreadExecutor(threads(name + "-finish"));
        this.acknowledger = new Acknowledger(settings, frames, listeners, timer, fallback);
        this.runner = new JobRunner(settings, acknowledger, () -> stopping);
    }

    void start() {
        synchronized (lifecycle) {
            if (started) {
                throw new IllegalStateException("the consumer was started already");
            }
            started = true;
            state = ConsumerState.CONNECTING;
        }
        long ping = settings.pingInterval().toNanos();
        timer.scheduleWithFixedDelay(this::heartbeat, ping, ping, TimeUnit.NANOSECONDS);
        // a look every quarter ttr touches each job between half and three quarters of its ttr
        long touchEvery = Math.max(MIN_TOUCH_CHECK_NANOS, settings.ttr().toNanos() / 4);
        timer.scheduleWithFixedDelay(this::touchHeld, touchEvery, touchEvery, TimeUnit.NANOSECONDS);
        timer.execute(this::connect);
    }

    ConsumerState state() {
        return state;
    }

    void close() {
        synchronized (lifecycle) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        acknowledger.hold();
        if (!started) {
            shutdownThreads();
            return;
        }
        handlers.shutdown();
        try {
            if (!handlers.awaitTermination(settings.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(Level.WARNING, "handlers still running after {0}: interrupted", settings.shutdownTimeout());
                handlers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            handlers.shutdownNow();
        }
        acknowledger.flushAll();
        StreamSession session = current;
        if (session != null) {
            session.close(CLOSE_HANDSHAKE_MILLIS);
        }
        shutdownThreads();
        state = ConsumerState.CLOSED;
    }

    @Override
    public void opened(StreamSession session) {
        if (stopping) {
            return;
        }
        state = ConsumerState.CONNECTED;
        LOG.log(Level.DEBUG, "stream open for {0}", settings.topics());
        listeners.connected();
    }

    @Override
    public void frame(StreamSession session, String text) {
        ServerFrame frame = frames.decode(text);
        if (frame instanceof ServerFrame.Jobs jobs) {
            received(session, jobs);
        } else if (frame instanceof ServerFrame.Ended ended) {
            if (!ended.ids().isEmpty()) {
                listeners.confirmed(ended.action(), ended.ids());
            }
            ended.refused().forEach((id, reason) -> {
                LOG.log(Level.DEBUG, "{0} of job {1} refused: {2}", ended.action(), id, reason);
                listeners.refused(ended.action(), id, reason);
            });
        } else if (frame instanceof ServerFrame.ErrorReport error) {
            LOG.log(Level.WARNING, "the gateway reports on the stream: {0}", error.message());
            listeners.error(error.message());
        }
        // ping and pong only show the gateway alive (the session noted it); unknown types are for newer clients
    }

    @Override
    public void ended(StreamSession session, int code, String reason) {
        synchronized (lifecycle) {
            if (session != current) {
                return;
            }
            current = null;
        }
        listeners.disconnected(code, reason);
        if (stopping) {
            return;
        }
        state = ConsumerState.CONNECTING;
        if (session.heardAnything()) {
            // the stream worked: this is a first failure, not one more in a row
            failuresInRow.set(0);
        }
        Duration wait = nextBackoff();
        LOG.log(Level.INFO, "stream ended ({0} {1}); opening it again in {2}", String.valueOf(code), reason, wait);
        schedule(this::connect, wait);
    }

    private void received(StreamSession session, ServerFrame.Jobs jobs) {
        long now = System.nanoTime();
        for (ReceivedJob job : jobs.jobs()) {
            HeldJob held = new HeldJob(job, session, now);
            session.hold(held);
            listeners.received(job);
            if (stopping) {
                // not started: it goes back when the stream closes
                continue;
            }
            try {
                handlers.execute(() -> runner.run(held));
            } catch (RejectedExecutionException closing) {
                // the pool is shutting down; the stream's close gives the job back
            }
        }
    }

    private void connect() {
        if (stopping) {
            return;
        }
        StreamSession session = new StreamSession(this);
        synchronized (lifecycle) {
            if (stopping) {
                return;
            }
            current = session;
        }
        HttpCalls calls = settings.client().calls();
        WebSocket.Builder builder = calls.http().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (calls.authorization() != null) {
            builder.header("Authorization", calls.authorization());
        }
        builder.buildAsync(streamUri(), session).whenComplete((socket, failure) -> {
            if (failure != null) {
                refused(session, failure);
            } else if (stopping) {
                // close() found no open stream to close: it holds no job yet, so cutting it gives nothing back late
                session.end(WebSocket.NORMAL_CLOSURE, "consumer closing");
            }
        });
    }

    /** The handshake failed: wait as its answer asks (429, 401/403), else back off, and try again. */
    private void refused(StreamSession failed, Throwable failure) {
        synchronized (lifecycle) {
            if (failed != current) {
                return;
            }
            current = null;
        }
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        int status = 0;
        Duration wait = null;
        String reason = String.valueOf(cause);
        if (cause instanceof WebSocketHandshakeException handshake) {
            status = handshake.getResponse().statusCode();
            Object body = handshake.getResponse().body();
            reason = "HTTP " + status + (body == null ? "" : " " + body);
            if (status == 401 || status == 403) {
                wait = settings.refusedBackoff();
                LOG.log(Level.WARNING, "stream refused ({0}): check the token; trying again in {1}", reason, wait);
            } else if (status == 429) {
                wait = RetryAfter.parse(
                                handshake
                                        .getResponse()
                                        .headers()
                                        .firstValue("Retry-After")
                                        .orElse(null),
                                settings.client().clock().instant())
                        .orElse(null);
            }
        }
        if (wait == null) {
            wait = nextBackoff();
            LOG.log(Level.INFO, "stream not opened ({0}); trying again in {1}", reason, wait);
        }
        listeners.disconnected(status, reason);
        if (!stopping) {
            state = ConsumerState.CONNECTING;
            schedule(this::connect, wait);
        }
    }

    private Duration nextBackoff() {
        return settings.reconnectBackoff().delay(failuresInRow.getAndIncrement());
    }

    private URI streamUri() {
        URI base = settings.client().baseUri();
        String scheme = "https".equalsIgnoreCase(base.getScheme()) ? "wss" : "ws";
        String query = "topics=" + String.join(",", settings.topics()) + "&credit=" + settings.credit() + "&ttr="
                + settings.ttr().toMillis();
        return URI.create(scheme + base.toString().substring(base.getScheme().length()) + "stream?" + query);
    }

    /** Pings the gateway, and cuts a stream it has not written to for the silence timeout. */
    private void heartbeat() {
        StreamSession session = current;
        if (session == null || session.ended()) {
            return;
        }
        long silentNanos = System.nanoTime() - session.lastHeardNanos();
        if (silentNanos > settings.silenceTimeout().toNanos()) {
            LOG.log(
                    Level.WARNING,
                    "the gateway was silent for {0} ms: opening the stream anew",
                    String.valueOf(silentNanos / 1_000_000));
            session.end(0, "gateway silent");
            return;
        }
        session.send(frames.ping());
    }

    /**
     * Keeps held jobs reserved: each one not yet acknowledged, and not a manual handler's, at half its ttr; and sends
     * finishes held back by a shutdown before their jobs' ttr runs out.
     */
    private void touchHeld() {
        long half = settings.ttr().toNanos() / 2;
        acknowledger.flushOlderThan(half);
        StreamSession session = current;
        if (session == null) {
            return;
        }
        long now = System.nanoTime();
        for (HeldJob job : session.held()) {
            if (job.touchedByConsumer() && now - job.lastReservedNanos() >= half) {
                acknowledger.touch(job);
            }
        }
    }

    private void schedule(Runnable task, Duration wait) {
        try {
            timer.schedule(task, wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            // the consumer is closing
        }
    }

    private void shutdownThreads() {
        timer.shutdownNow();
        handlers.shutdownNow();
        fallback.shutdown();
        try {
            fallback.awaitTermination(CLOSE_HANDSHAKE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
