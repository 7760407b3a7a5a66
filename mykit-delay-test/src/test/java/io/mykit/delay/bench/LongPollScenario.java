package io.mykit.delay.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
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
    /** Longer than the measurement (the gateway runs with a max-timeout to match): polls answer only at the end. */
    private static final long POLL_TIMEOUT_MS = 120_000;

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

    /** Starts the scenario's gateway with extra {@code key=value} properties. */
    interface GatewayStarter {
        BenchGateway start(String... properties) throws Exception;
    }

    void run(GatewayStarter startGateway) throws Exception {
        System.out.printf(
                Locale.ROOT,
                "[bench] 9 push latency alone and with %,d waiting long-polls: %d push clients,"
                        + " %d s warm-up, %d x %d s each%n",
                waiting,
                clients,
                warmupSeconds,
                windows,
                windowSeconds);
        try (BenchGateway gateway = startGateway.start("mykit.delay.pull.max-timeout=5m")) {
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), cpu);
            LoadDriver.Throughput before = driver.singlePush(clients, warmupSeconds, windowSeconds, windows);
            int[] threadsAlone = gateway.requestThreads();

            Polls polls = new Polls(gateway.baseUrl());
            polls.open(waiting);
            long openedBy = System.currentTimeMillis() + 60_000;
            while (gateway.waitingPolls() < waiting && System.currentTimeMillis() < openedBy) {
                Thread.sleep(50);
            }
            int waitingAtStart = gateway.waitingPolls();
            LoadDriver.Throughput loaded = driver.singlePush(clients, 0, windowSeconds, windows);
            int[] threadsWaiting = gateway.requestThreads();
            int waitingAtEnd = gateway.waitingPolls();

            // one job per waiting poll answers them all; then the same pushes again, nobody waiting
            polls.stop();
            polls.pushDue(gateway.baseUrl(), waiting);
            long answeredBy = System.currentTimeMillis() + 60_000;
            while (gateway.waitingPolls() > 0 && System.currentTimeMillis() < answeredBy) {
                Thread.sleep(50);
            }
            LoadDriver.Throughput after = driver.singlePush(clients, 0, windowSeconds, windows);

            String scenario = String.format(Locale.ROOT, "9 push, %d clients", clients);
            row(scenario, "no long-poll waiting", before);
            row("", String.format(Locale.ROOT, "%,d long-polls waiting", waiting), loaded);
            row("", "no long-poll waiting, again", after);
            table.row(
                    "",
                    "polls waiting at start / end",
                    String.format(
                            Locale.ROOT, "%,d / %,d (%d failed)", waitingAtStart, waitingAtEnd, polls.failed.get()),
                    "= " + waiting,
                    ReportTable.verdict(
                            waitingAtStart == waiting && waitingAtEnd == waiting && polls.failed.get() == 0));
            table.row(
                    "",
                    "Tomcat request threads busy",
                    String.format(
                            Locale.ROOT,
                            "%d of %d alone, %d of %d with"
                                    + " the polls waiting (sampled right after each push phase)",
                            threadsAlone[0],
                            threadsAlone[1],
                            threadsWaiting[0],
                            threadsWaiting[1]),
                    "",
                    "");
            if (before.errors() + loaded.errors() + after.errors() > 0) {
                notes.accept("scenario 9: push errors alone " + before.errors() + ", with polls " + loaded.errors()
                        + ", alone again " + after.errors() + "; first: "
                        + (loaded.firstError() != null
                                ? loaded.firstError()
                                : before.firstError() != null ? before.firstError() : after.firstError()));
            }
        }
    }

    private void row(String scenario, String measure, LoadDriver.Throughput t) {
        Histogram latency = t.latencyMicros();
        table.row(
                scenario,
                measure,
                String.format(
                        Locale.ROOT,
                        "latency p50 / p99 / max %s / %s / %s ms; %s pushes/s; errors %d",
                        ReportTable.micros(latency.percentile(50)),
                        ReportTable.micros(latency.percentile(99)),
                        ReportTable.micros(latency.max()),
                        ReportTable.count(t.median()),
                        t.errors()),
                "",
                "");
    }

    /** Keeps {@code n} GET /get/{topic} long-polls open, each sent again when it answers. */
    private static final class Polls {
        // two threads for all 2,000: the client must not crowd the gateway out of this JVM's two cores
        private final HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(2, runnable -> {
                    Thread thread = new Thread(runnable, "bench-long-polls");
                    thread.setDaemon(true);
                    return thread;
                }))
                .connectTimeout(Duration.ofSeconds(30))
                .build();
        private final HttpRequest request;
        private final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong answered = new AtomicLong();
        final AtomicLong failed = new AtomicLong();

        Polls(String base) {
            request = HttpRequest.newBuilder(
                            URI.create(base + "/get/" + WAIT_TOPIC + "?ttr=600000&timeout=" + POLL_TIMEOUT_MS))
                    .timeout(Duration.ofMillis(POLL_TIMEOUT_MS + 30_000))
                    .GET()
                    .build();
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

        /** Pushes {@code count} jobs due now to the waited-on topic, 500 per call. */
        void pushDue(String base, int count) throws Exception {
            for (int sent = 0; sent < count; sent += 500) {
                String jobs = String.join(
                        ",",
                        java.util.Collections.nCopies(
                                Math.min(500, count - sent), "{\"topic\":\"" + WAIT_TOPIC + "\",\"delay\":0}"));
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create(base + "/push/batch"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("[" + jobs + "]"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("push of due jobs failed: " + response.body());
                }
            }
        }
    }
}
