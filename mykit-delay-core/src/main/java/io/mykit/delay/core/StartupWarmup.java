package io.mykit.delay.core;

import io.mykit.delay.queue.service.DelayQueueService;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.catalina.Service;
import org.apache.catalina.connector.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.SmartLifecycle;

/**
 * {@code mykit.delay.http.warmup}: a freshly started JVM runs its first thousands of requests interpreted and compiles
 * them on the cores the requests need, so the first clients fall seconds behind. Before the web server opens its port
 * (its start phase is {@code DEFAULT_PHASE - 2048}) and after the journal writers run ({@link GatewayLifecycle}), this
 * starts delivery early and sends the gateway's own requests through a loopback connector added to the same Tomcat
 * service, the whole path of a job in topic {@value #TOPIC}: a push due at once, pulled by a waiting GET and finished,
 * and a push due in an hour, looked up and cancelled; now and then a burst of a batch puller's size. The topic always
 * delivers to pull consumers ({@link DeliveryTargets}), whatever the routes say, so no warm-up job reaches a broker. At
 * the end every warm-up job still waiting is cancelled by this start's own bizKey and every one handed over is taken
 * and finished. It ends when the JIT has settled ({@link #SETTLED_JIT_MS} of compilation per second, twice running) or
 * at the configured duration, whichever comes first. It runs on two loopback connectors one after the other
 * ({@link #LAST_CONNECTOR} for the second), each removed when its part ends, so that the first removal's
 * deoptimizations are compiled away before the port opens; the second is removed before it opens.
 */
final class StartupWarmup implements SmartLifecycle {
    static final String TOPIC = DelayQueueService.WARMUP_TOPIC;
    private static final Logger log = LoggerFactory.getLogger(StartupWarmup.class);
    /** Between the journal writers' start and the web server's. */
    static final int PHASE = GatewayLifecycle.PHASE + 1024;

    private static final int THREADS = 4;
    /** Compilation per wall second (ms) below which the JIT counts as settled: a tenth of one compiler thread. */
    static final long SETTLED_JIT_MS = 100;
    /** Never shorter: the first seconds compile the most, and one quiet second can fall between two waves. */
    private static final Duration AT_LEAST = Duration.ofSeconds(3);
    /** The second loopback connector's share of the warm-up (at most half of it). */
    static final Duration LAST_CONNECTOR = Duration.ofSeconds(4);
    /** Rounds that failed with none passing: Redis or the journal is down; the warm-up gives up instead of waiting. */
    private static final int GIVE_UP_AFTER_FAILURES = 40;

    private static final String GAVE_UP = "every round failed";
    private static final String INTERRUPTED = "interrupted";

    private final Supplier<WebServer> webServer;
    private final Duration duration;
    private final Runnable startDelivery;
    private final DelayQueueService queue;
    private final WarmupTraffic traffic;

    private volatile boolean running;

    /**
     * {@code startDelivery} starts the timers ahead of the web server, so the warm-up's own jobs fall due;
     * {@code queue} takes pushes into {@link #TOPIC} only while the warm-up runs; {@code maxBatchSize} is the gateway's
     * batch limit.
     */
    StartupWarmup(
            Supplier<WebServer> webServer,
            Duration duration,
            Runnable startDelivery,
            DelayQueueService queue,
            int maxBatchSize) {
        this.webServer = webServer;
        this.duration = duration;
        this.startDelivery = startDelivery;
        this.queue = queue;
        this.traffic = new WarmupTraffic(maxBatchSize);
    }

    /**
     * The configured duration, none when unset: it is opt-in, since it delays every start and runs the gateway's own
     * jobs through the production Redis and journal.
     */
    static Duration duration(Duration configured) {
        return configured == null ? Duration.ZERO : configured;
    }

    @Override
    public void start() {
        running = true;
        if (duration.isZero() || !(webServer.get() instanceof TomcatWebServer tomcat)) {
            return;
        }
        Service service = tomcat.getTomcat().getService();
        startDelivery.run();
        queue.warmingUp(true);
        long started = System.nanoTime();
        try {
            long last = Math.min(LAST_CONNECTOR.toNanos(), duration.toNanos() / 2);
            Phase first = onLoopback(service, duration.toNanos() - last);
            // a warm-up that gave up (stores down) or was interrupted does not try a second time
            Phase second = first.gaveUp() ? new Phase("not run", 0, 0, 0, first.left()) : onLoopback(service, last);
            log.info(
                    "Warmed up in {} ms before opening the port, over two loopback connectors ({}; then {}): {} calls"
                            + " in topic {} ({} bursts of {} jobs), {} rounds failed, {} warm-up jobs left unended",
                    (System.nanoTime() - started) / 1_000_000,
                    first.ended(),
                    second.ended(),
                    first.calls() + second.calls(),
                    TOPIC,
                    first.bursts() + second.bursts(),
                    traffic.burstJobs(),
                    first.failures() + second.failures(),
                    second.left());
        } finally {
            queue.warmingUp(false);
        }
    }

    /** What one loopback connector's part of the warm-up did. */
    private record Phase(String ended, long calls, long bursts, long failures, long left) {
        boolean gaveUp() {
            return ended.equals(GAVE_UP) || ended.equals(INTERRUPTED);
        }
    }

    /**
     * Warms up through a loopback connector of its own for {@code budgetNanos} at most, ends its jobs, then removes it.
     * Removing a connector stops its threads and poller down branches that shared code (Tomcat's, the executors') never
     * took before: the second connector's run recompiles them, so the last removal costs the real load nothing.
     */
    private Phase onLoopback(Service service, long budgetNanos) {
        Connector loopback = new Connector("HTTP/1.1");
        loopback.setPort(0);
        loopback.setProperty("address", "127.0.0.1");
        service.addConnector(loopback);
        try {
            return warmUp(loopback.getLocalPort(), budgetNanos);
        } finally {
            service.removeConnector(loopback);
            try {
                loopback.destroy();
            } catch (Exception e) {
                log.debug("warm-up connector not destroyed cleanly", e);
            }
        }
    }

    private Phase warmUp(int port, long budgetNanos) {
        long started = System.nanoTime();
        long end = started + budgetNanos;
        AtomicLong calls = new AtomicLong();
        AtomicLong bursts = new AtomicLong();
        AtomicLong rounds = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong stopAt = new AtomicLong(end);
        List<Thread> threads = new ArrayList<>(THREADS);
        for (int t = 0; t < THREADS; t++) {
            int style = t;
            Thread thread = new Thread(
                    () -> {
                        LoopbackHttp http = new LoopbackHttp(port, 10_000, style);
                        while (System.nanoTime() < stopAt.get()) {
                            try {
                                traffic.round(http, rounds.getAndIncrement(), calls, bursts);
                            } catch (IOException | RuntimeException e) {
                                log.debug("warm-up round failed", e);
                                closed(http);
                                if (failures.incrementAndGet() >= GIVE_UP_AFTER_FAILURES && calls.get() == 0) {
                                    stopAt.set(0);
                                }
                                WarmupTraffic.pause();
                            }
                        }
                        closed(http);
                    },
                    "mykit-warmup-" + t);
            thread.start();
            threads.add(thread);
        }
        String ended = waitForSettledJit(started, budgetNanos, stopAt);
        for (Thread thread : threads) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new Phase(ended, calls.get(), bursts.get(), failures.get(), traffic.cleanUp(port));
    }

    /** Until the JIT compiled less than {@link #SETTLED_JIT_MS} in each of two seconds running, or the end. */
    private String waitForSettledJit(long started, long budgetNanos, AtomicLong stopAt) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean measured = jit != null && jit.isCompilationTimeMonitoringSupported();
        long last = measured ? jit.getTotalCompilationTime() : 0;
        int quietSeconds = 0;
        while (System.nanoTime() < stopAt.get()) {
            try {
                Thread.sleep(Math.max(1, Math.min(1000, (stopAt.get() - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopAt.set(0);
                return INTERRUPTED;
            }
            if (!measured) {
                continue;
            }
            long now = jit.getTotalCompilationTime();
            quietSeconds = now - last < SETTLED_JIT_MS ? quietSeconds + 1 : 0;
            last = now;
            if (quietSeconds >= 2 && System.nanoTime() - started >= AT_LEAST.toNanos()) {
                stopAt.set(0);
                return "the JIT settled";
            }
        }
        return stopAt.get() == 0 ? GAVE_UP : "its full " + budgetNanos / 1_000_000 + " ms";
    }

    private static void closed(LoopbackHttp http) {
        try {
            http.close();
        } catch (IOException e) {
            log.debug("warm-up connection not closed cleanly", e);
        }
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
