package io.mykit.delay.bench;

import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Scenario 12: the gateway as a user first meets it. A freshly started gateway JVM ({@link GatewayJvm}: any JDK with
 * {@code -Dbench.java}, any options with {@code -Dbench.gateway.jvm-options}) on a private redis-server, and the moment
 * it serves, with no warm-up by load (the gateway's own start-up warm-up runs as configured; the load driver is warmed
 * on an in-memory server first), 4 producer threads push single jobs on an open-loop schedule at 1,000/s in all while 4
 * consumers take them one GET /get/{topic} and one GET /finish at a time, for 60 s. Send lag = when a push was sent -
 * when the schedule planned it: how far a cold gateway makes its producers fall behind. Lateness covers every job
 * pushed in that first minute.
 *
 * <p>Sizes: {@code -Dbench.fresh.rate}, {@code .seconds}, {@code .pushers}, {@code .pullers}, {@code .pull-batch},
 * {@code .client-warmup-seconds} (the same load first, unmeasured, to see what the first seconds cost),
 * {@code .driver-warmup-seconds} (10: the load driver warmed on an in-memory server before the gateway starts; 0:
 * cold); the delays are {@code bench.late.min-delay}/{@code max-delay}.
 */
final class FreshStartScenario {
    private static final String TOPIC = "bench-fresh";
    private static final long DELIVERY_GRACE_MS = 30_000;

    private final BenchSettings settings;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final int rate;
    private final int seconds;
    private final int pushers;
    private final int pullers;
    private final int pullBatch;
    /**
     * Seconds of the same load before the measured minute (0: none, the scenario's point): what the first seconds cost.
     */
    private final int clientWarmup;
    /**
     * Seconds of the same load against an in-memory server ({@link FloorServer}) before the gateway starts: the load
     * driver's own code is compiled then, as a user's long-running services are, so a cold driver's JIT does not share
     * the first seconds' cores with the gateway.
     */
    private final int driverWarmup;

    private final CpuMeter cpu;

    FreshStartScenario(
            BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.rate = settings.size("bench.fresh.rate", 1000, 1000, 200);
        this.seconds = settings.size("bench.fresh.seconds", 60, 60, 4);
        this.pushers = settings.number("bench.fresh.pushers", 4);
        this.pullers = settings.number("bench.fresh.pullers", 4);
        this.pullBatch = settings.number("bench.fresh.pull-batch", 1);
        this.clientWarmup = settings.number("bench.fresh.client-warmup-seconds", 0);
        this.driverWarmup = settings.size("bench.fresh.driver-warmup-seconds", 10, 10, 1);
        this.cpu = cpu;
        if (rate < 1 || seconds < 1 || pushers < 1 || pullers < 1 || pullBatch < 1) {
            throw new IllegalArgumentException(
                    "bench.fresh.rate, .seconds, .pushers, .pullers, .pull-batch must be >= 1");
        }
    }

    void run() throws Exception {
        progress(String.format(
                Locale.ROOT,
                "12 fresh start: a new gateway JVM, then at once %d jobs/s from %d"
                        + " pushers for %d s, %d pullers taking %d per GET",
                rate,
                pushers,
                seconds,
                pullers,
                pullBatch));
        Path logDir = Files.createTempDirectory("mykit-bench-fresh-");
        if (driverWarmup > 0) {
            try (FloorServer floor = FloorServer.start()) {
                new LoadDriver(floor.baseUrl(), settings.bodyBytes(), cpu)
                        .pollTimeout(settings.pollTimeoutMs())
                        .steadyDelivery(
                                TOPIC + "-driver",
                                rate,
                                driverWarmup,
                                pushers,
                                pullers,
                                pullBatch,
                                settings.lateMinDelayMs(),
                                settings.lateMaxDelayMs(),
                                DELIVERY_GRACE_MS);
            }
        }
        try (OwnRedis redis = TestServers.startOwnRedis();
                GatewayJvm gateway = GatewayJvm.start(settings.withRedis(redis.host(), redis.port()), logDir)) {
            CpuMeter meter = new CpuMeter(redis.port(), settings.mysqlPort()).withNodes(List.of(gateway.handle()));
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), meter)
                    .pollTimeout(settings.pollTimeoutMs());
            LoadDriver.Lateness firstSeconds = clientWarmup > 0
                    ? driver.steadyDelivery(
                            TOPIC + "-warmup",
                            rate,
                            clientWarmup,
                            pushers,
                            pullers,
                            pullBatch,
                            settings.lateMinDelayMs(),
                            settings.lateMaxDelayMs(),
                            DELIVERY_GRACE_MS)
                    : null;
            LoadDriver.Lateness l = driver.steadyDelivery(
                    TOPIC,
                    rate,
                    seconds,
                    pushers,
                    pullers,
                    pullBatch,
                    settings.lateMinDelayMs(),
                    settings.lateMaxDelayMs(),
                    DELIVERY_GRACE_MS);

            String scenario = String.format(Locale.ROOT, "12 fresh JVM, %d/s for %d s", rate, seconds);
            Histogram lag = l.sendLagMs();
            table.row(
                    scenario,
                    "send lag p50 / p99 / p99.9 / max",
                    String.format(
                            Locale.ROOT,
                            "%d / %d / %d / %d ms (n=%s)",
                            lag.percentile(50),
                            lag.percentile(99),
                            lag.percentile(99.9),
                            lag.max(),
                            ReportTable.count(lag.count())),
                    "max <= " + IssueTargets.SEND_LAG_MAX_MS + " ms",
                    ReportTable.verdict(lag.count() > 0 && lag.max() <= IssueTargets.SEND_LAG_MAX_MS));
            Histogram late = l.latenessMs();
            table.row(
                    "",
                    "lateness p50 / p99 / p99.9 / max",
                    IssueTargets.lateness(late),
                    IssueTargets.LATENESS_TARGET,
                    ReportTable.verdict(IssueTargets.latenessMet(late)));
            boolean complete = l.missing() == 0 && l.duplicates() == 0 && l.unexpected() == 0 && l.pushed() > 0;
            table.row(
                    "",
                    "received / pushed",
                    String.format(
                            "%s / %s; missing %d, duplicates %d, unexpected %d",
                            ReportTable.count(l.received()),
                            ReportTable.count(l.pushed()),
                            l.missing(),
                            l.duplicates(),
                            l.unexpected()),
                    "all, once",
                    ReportTable.verdict(complete));
            arrivals.record(scenario, l.pushed(), l.received(), l.missing(), l.unexpected());
            Histogram push = l.pushMicros();
            table.row(
                    "",
                    "steady push",
                    String.format(
                            "%s jobs/s achieved by %d pushers; latency p50 / p99 / max %s / %s / %s ms",
                            ReportTable.count(l.pushRate()),
                            pushers,
                            ReportTable.micros(push.percentile(50)),
                            ReportTable.micros(push.percentile(99)),
                            ReportTable.micros(push.max())),
                    rate + "/s",
                    "");
            table.row("", "worst seconds of the schedule", l.pushSeconds().worst(3), "", "");
            long errors = l.pushErrors() + l.pullErrors() + l.finishErrors();
            table.row(
                    "",
                    "errors",
                    String.format("push %d, get %d, finish %d", l.pushErrors(), l.pullErrors(), l.finishErrors()),
                    "0",
                    ReportTable.verdict(errors == 0));
            if (l.firstError() != null) {
                notes.accept("first error in scenario 12: " + l.firstError());
            }
            if (firstSeconds != null) {
                table.row(
                        "",
                        "the same load before, unmeasured",
                        String.format(
                                Locale.ROOT,
                                "%d s: send lag max %d ms, lateness p99 %d ms",
                                clientWarmup,
                                firstSeconds.sendLagMs().max(),
                                firstSeconds.latenessMs().percentile(99)),
                        "",
                        "");
            }
            table.row(
                    "",
                    "load driver",
                    driverWarmup > 0
                            ? String.format(
                                    Locale.ROOT,
                                    "warmed first: the same load for"
                                            + " %d s on an in-memory server, before the gateway started",
                                    driverWarmup)
                            : "cold",
                    "",
                    "");
            table.row("", "gateway JVM", gateway.describe(), "", "");
            table.row(
                    "",
                    "JVM launch to serving HTTP",
                    String.format(Locale.ROOT, "%.1f s", gateway.startToServingMs() / 1000.0),
                    "",
                    "");
            table.row("", "CPU (cores)", l.cpu().cores(), "", "");
            notes.accept("scenario 12: the gateway JVM's log is " + gateway.log());
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
