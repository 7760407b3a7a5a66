package io.mykit.delay.bench;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Scenario 9: push latency of one gateway alone and while {@code bench.polls.waiting} long-polls (default 2,000) wait
 * on a topic nobody pushes to, each sent again as soon as it times out. The polls come from one asynchronous
 * java.net.http client in this JVM, so the gateway holds them as open connections, not as threads.
 */
final class LongPollScenario {
    private static final String WAIT_TOPIC = "bench-waiting";
    private static final long POLL_TIMEOUT_MS = 30_000;

    private final BenchSettings settings;
    private final CpuMeter cpu;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final int waiting = Integer.getInteger("bench.polls.waiting", 2_000);
    private final int clients = Integer.getInteger("bench.polls.push-clients", 8);
    private final int warmupSeconds = Integer.getInteger("bench.polls.warmup", 15);
    private final int windowSeconds = Integer.getInteger("bench.polls.window", 5);
    private final int windows = Integer.getInteger("bench.polls.windows", 3);

    LongPollScenario(BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes) {
        this.settings = settings;
        this.cpu = cpu;
        this.table = table;
        this.notes = notes;
    }

    void run(Callable<BenchGateway> startGateway) throws Exception {
        System.out.printf(Locale.ROOT, "[bench] 9 push latency alone and with %,d waiting long-polls: %d push clients,"
                + " %d s warm-up, %d x %d s each%n", waiting, clients, warmupSeconds, windows, windowSeconds);
        try (BenchGateway gateway = startGateway.call()) {
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), cpu);
            int threadsAlone = liveThreads();
            LoadDriver.Throughput alone = driver.singlePush(clients, warmupSeconds, windowSeconds, windows);

            Polls polls = new Polls(gateway.baseUrl());
            polls.open(waiting);
            long openedBy = System.currentTimeMillis() + 60_000;
            while (gateway.waitingPolls() < waiting && System.currentTimeMillis() < openedBy) {
                Thread.sleep(50);
            }
            int waitingAtStart = gateway.waitingPolls();
            int threadsWaiting = liveThreads();
            LoadDriver.Throughput loaded = driver.singlePush(clients, warmupSeconds, windowSeconds, windows);
            int waitingAtEnd = gateway.waitingPolls();
            polls.stop();

            String scenario = String.format(Locale.ROOT, "9 push, %d clients", clients);
            row(scenario, "no long-poll waiting", alone);
            row("", String.format(Locale.ROOT, "%,d long-polls waiting", waiting), loaded);
            table.row("", "polls waiting at start / end", String.format(Locale.ROOT, "%,d / %,d (%,d answered empty"
                    + " at their %d s timeout and sent again, %d failed)", waitingAtStart, waitingAtEnd,
                    polls.answered.get(), POLL_TIMEOUT_MS / 1000, polls.failed.get()), "= " + waiting,
                    ReportTable.verdict(waitingAtStart == waiting && polls.failed.get() == 0));
            table.row("", "JVM threads alone / with polls", threadsAlone + " / " + threadsWaiting
                    + " (gateway, bench and the poll client share this JVM)", "", "");
            if (alone.errors() + loaded.errors() > 0) {
                notes.accept("scenario 9: push errors alone " + alone.errors() + ", with polls " + loaded.errors()
                        + "; first: " + (loaded.firstError() != null ? loaded.firstError() : alone.firstError()));
            }
        }
    }

    private void row(String scenario, String measure, LoadDriver.Throughput t) {
        Histogram latency = t.latencyMicros();
        table.row(scenario, measure, String.format(Locale.ROOT, "latency p50 / p99 / max %s / %s / %s ms;"
                        + " %s pushes/s; errors %d", ReportTable.micros(latency.percentile(50)),
                ReportTable.micros(latency.percentile(99)), ReportTable.micros(latency.max()),
                ReportTable.count(t.median()), t.errors()), "", "");
    }

    private static int liveThreads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** Keeps {@code n} GET /get/{topic} long-polls open, each sent again when it answers. */
    private static final class Polls {
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30)).build();
        private final HttpRequest request;
        private final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong answered = new AtomicLong();
        final AtomicLong failed = new AtomicLong();

        Polls(String base) {
            request = HttpRequest.newBuilder(URI.create(base + "/get/" + WAIT_TOPIC + "?ttr=1000&timeout="
                    + POLL_TIMEOUT_MS)).timeout(Duration.ofMillis(POLL_TIMEOUT_MS + 30_000)).GET().build();
        }

        void open(int n) throws InterruptedException {
            for (int i = 0; i < n; i++) {
                send();
                if (i % 200 == 199) {
                    // in steps, so the gateway's accept queue is not flooded by one burst of connects
                    Thread.sleep(100);
                }
            }
        }

        private void send() {
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                if (error != null || response.statusCode() != 200) {
                    failed.incrementAndGet();
                } else {
                    answered.incrementAndGet();
                }
                if (running.get()) {
                    send();
                }
            });
        }

        void stop() {
            running.set(false);
        }
    }
}
