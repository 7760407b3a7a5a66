package io.mykit.delay.core;

import io.mykit.delay.queue.service.DelayQueueService;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    private static final Pattern ID = Pattern.compile("\"data\":\"([^\"]+)\"");
    private static final Pattern IDS = Pattern.compile("\"id\":\"([^\"]+)\"");
    /** Every this many rounds a burst ({@link #burst}): rarely enough that the journal takes little more. */
    private static final int BURST_EVERY = 128;

    private static final int FIRST_BURST = 4;
    /** Jobs per burst, and per batch GET of it: a batch puller's size (less where the batch limit is lower). */
    private static final int BURST_JOBS = 100;

    private static final String BODY =
            "warm-up of a freshly started gateway: the path of a job, push to finish, once" + " over";

    private final Supplier<WebServer> webServer;
    private final Duration duration;
    private final Runnable startDelivery;
    private final DelayQueueService queue;
    private final int burstJobs;
    /** This start's own: nodes starting side by side cancel only their own warm-up jobs. */
    private final String bizKey = TOPIC + "-" + UUID.randomUUID().toString().substring(0, 8);

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
        this.burstJobs = Math.min(BURST_JOBS, maxBatchSize);
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
                    burstJobs,
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
                                round(http, rounds.getAndIncrement(), calls, bursts);
                            } catch (IOException | RuntimeException e) {
                                log.debug("warm-up round failed", e);
                                closed(http);
                                if (failures.incrementAndGet() >= GIVE_UP_AFTER_FAILURES && calls.get() == 0) {
                                    stopAt.set(0);
                                }
                                pause();
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
        return new Phase(ended, calls.get(), bursts.get(), failures.get(), cleanUp(port));
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

    /**
     * The path of two jobs: one due at once, taken by a waiting GET (this round's or another's) and finished; one due
     * in an hour, looked up and cancelled. The rounds vary what a user's calls vary (with and without a bizKey, the
     * legacy and the REST routes, batches, an empty poll): the JIT compiles only the branches it saw, and a branch
     * first seen after the port opened would throw compiled code away under the real load.
     */
    private void round(LoopbackHttp http, long n, AtomicLong calls, AtomicLong bursts) throws IOException {
        boolean odd = (n & 1) == 1;
        push(http, 0);
        String later = push(http, 3_600_000);
        expect(http.get("/jobs/" + later), "lookup of " + later);
        expect(odd ? http.delete("/jobs/" + later) : http.get("/delete?jobId=" + later), "cancel of " + later);
        LoopbackHttp.Answer taken =
                expect(http.get("/get/" + TOPIC + (odd ? "?timeout=250" : "?ttr=5000&timeout=250")), "pull");
        calls.addAndGet(5);
        Matcher id = IDS.matcher(taken.body());
        if (id.find()) {
            expect(
                    odd
                            ? http.post("/jobs/" + id.group(1) + "/finish", null)
                            : http.get("/finish?jobId=" + id.group(1)),
                    "finish of " + id.group(1));
            calls.incrementAndGet();
        }
        if (n % 8 == 0) {
            String job = job(0);
            expect(http.post("/push/batch", "[" + job + "," + job + "," + job + "]"), "batch push");
            finishAll(http, expect(http.get("/get/" + TOPIC + "/batch?count=3&timeout=500"), "batch pull"));
            // mostly empty, but it may take a job another round pushed: finished like any other
            Matcher polled = IDS.matcher(
                    expect(http.get("/get/" + TOPIC + "?timeout=0"), "poll").body());
            if (polled.find()) {
                expect(http.get("/finish?jobId=" + polled.group(1)), "finish of " + polled.group(1));
            }
            expect(http.get("/jobs?bizKey=" + bizKey + "&topic=" + TOPIC + "&limit=10"), "lookup by bizKey");
            calls.addAndGet(5);
        }
        // early in each connector's part: a short warm-up gets one too
        if (n % BURST_EVERY == FIRST_BURST) {
            burst(http, calls);
            bursts.incrementAndGet();
        }
    }

    /**
     * {@value #BURST_JOBS} jobs due at once in one batch push, taken as many per batch GET and finished per batch: the
     * sizes a drain's loops and buffers see. After a warm-up of batches of 3 alone, a drain of 1M due at once spent 8.6
     * s of its 33 s compiling the batch finish and Tomcat's large-answer paths.
     */
    private void burst(LoopbackHttp http, AtomicLong calls) throws IOException {
        String job = job(0);
        StringBuilder jobs = new StringBuilder("[").append(job);
        for (int i = 1; i < burstJobs; i++) {
            jobs.append(',').append(job);
        }
        expect(http.post("/push/batch", jobs.append(']').toString()), "burst push");
        calls.incrementAndGet();
        // other rounds' pulls may take some of them: a few GETs, then the clean-up takes what is left
        for (int pulls = 0; pulls < 3; pulls++) {
            if (!finishAll(
                    http,
                    expect(http.get("/get/" + TOPIC + "/batch?count=" + burstJobs + "&timeout=500"), "burst pull"))) {
                break;
            }
            calls.addAndGet(2);
        }
    }

    /** POST /finish/batch of the jobs in a batch pull's answer; false when it held none. */
    private static boolean finishAll(LoopbackHttp http, LoopbackHttp.Answer taken) throws IOException {
        Matcher id = IDS.matcher(taken.body());
        if (!id.find()) {
            return false;
        }
        StringBuilder ids = new StringBuilder("[");
        do {
            ids.append(ids.length() > 1 ? ",\"" : "\"").append(id.group(1)).append('"');
        } while (id.find());
        expect(http.post("/finish/batch", ids.append(']').toString()), "batch finish");
        return true;
    }

    private String job(long delayMs) {
        return "{\"topic\":\"" + TOPIC + "\",\"bizKey\":\"" + bizKey + "\",\"delay\":" + delayMs + ",\"body\":\"" + BODY
                + "\"}";
    }

    private String push(LoopbackHttp http, long delayMs) throws IOException {
        LoopbackHttp.Answer pushed = expect(http.post("/push", job(delayMs)), "push");
        Matcher id = ID.matcher(pushed.body());
        if (!id.find()) {
            throw new IllegalStateException("push answered no id: " + pushed.body());
        }
        return id.group(1);
    }

    private static LoopbackHttp.Answer expect(LoopbackHttp.Answer answer, String what) {
        if (answer.status() != 200) {
            throw new IllegalStateException("warm-up " + what + " answered " + answer.status() + " " + answer.body());
        }
        return answer;
    }

    /**
     * Cancels this start's warm-up jobs still waiting (by its bizKey), then takes and finishes the ones handed over,
     * until a cancel refuses none (none is ready or in flight any more) and no pull takes any: a few hundred ms, 10 s
     * at most. Returns how many the last cancel refused.
     */
    private long cleanUp(int port) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long left = -1;
        try (LoopbackHttp http = new LoopbackHttp(port, 30_000, 0)) {
            while (System.nanoTime() < deadline) {
                left = refused(expect(http.delete("/jobs?bizKey=" + bizKey + "&topic=" + TOPIC), "cancel by bizKey")
                        .body());
                boolean took = false;
                while (finishAll(
                        http, expect(http.get("/get/" + TOPIC + "/batch?count=100&timeout=100"), "batch pull"))) {
                    took = true;
                }
                if (left == 0 && !took) {
                    return 0;
                }
                pause();
            }
        } catch (IOException | RuntimeException e) {
            log.warn("Warm-up jobs in topic {} may be left: {}", TOPIC, e.toString());
        }
        log.warn(
                "Warm-up jobs in topic {} with bizKey {} left ready or in flight: {}",
                TOPIC,
                bizKey,
                left < 0 ? "unknown" : left);
        return left;
    }

    /** How many jobs a cancel-by-bizKey answer lists as refused, -1 when it has no such list. */
    static long refused(String cancelAnswer) {
        int from = cancelAnswer.indexOf("\"refused\":{");
        if (from < 0) {
            return -1;
        }
        int to = cancelAnswer.indexOf('}', from);
        String entries = cancelAnswer.substring(from + "\"refused\":{".length(), to < 0 ? cancelAnswer.length() : to);
        long count = 0;
        for (int at = entries.indexOf("\":\""); at >= 0; at = entries.indexOf("\":\"", at + 3)) {
            count++;
        }
        return count;
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
