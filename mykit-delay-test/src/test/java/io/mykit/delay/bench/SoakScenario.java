package io.mykit.delay.bench;

import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import redis.clients.jedis.Jedis;

/**
 * Scenario 13, soak: a fresh gateway JVM on a private redis-server with N jobs pending in the measured topic, then a
 * steady rate of single pushes (4 producers) taken by single pulls (4 consumers) for the whole duration. The load runs
 * in rounds of one sample interval; after each round the bench reads the gateway's heap after its last GC (JMX), Redis'
 * used_memory and the journal's size (information_schema data_length + index_length, InnoDB's estimate), and keeps the
 * round's lateness. Rounds are merged into windows (5 minutes by default) whose p99 shows whether delivery gets slower
 * over time. Between rounds the pushers pause while the last jobs come due (up to the longest delay plus a long-poll
 * timeout): a gap of a few seconds per round, not part of any window.
 *
 * <p>Sizes: {@code -Dbench.soak.minutes} (30; 1 quick), {@code .sample-seconds} (60; 10 quick), {@code .window-samples}
 * (rounds per window, 5; 3 quick), {@code .pending} (1,000,000; 2,000 quick), {@code .rate} (2,000; 200 quick),
 * {@code .pushers}, {@code .pullers}, {@code .pull-batch}.
 */
final class SoakScenario {
    private static final String TOPIC = "bench-soak";
    private static final long DELIVERY_GRACE_MS = 30_000;
    private static final long STORED_MAX_MS = 600_000;

    /** What one round left behind: heap after GC, Redis used_memory and journal size in bytes, and its lateness. */
    private record Sample(double atMinutes, long heapAfterGc, long redisUsed, long journalBytes, Histogram lateness) {}

    private final BenchSettings settings;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final int minutes;
    private final int sampleSeconds;
    private final int windowSamples;
    private final int pending;
    private final int rate;
    private final int pushers;
    private final int pullers;
    private final int pullBatch;

    SoakScenario(BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.minutes = settings.size("bench.soak.minutes", 30, 30, 1);
        this.sampleSeconds = settings.size("bench.soak.sample-seconds", 60, 60, 10);
        this.windowSamples = settings.size("bench.soak.window-samples", 5, 5, 3);
        this.pending = settings.size("bench.soak.pending", 1_000_000, 1_000_000, 2_000);
        this.rate = settings.size("bench.soak.rate", 2000, 2000, 200);
        this.pushers = settings.number("bench.soak.pushers", 4);
        this.pullers = settings.number("bench.soak.pullers", 4);
        this.pullBatch = settings.number("bench.soak.pull-batch", 1);
        if (minutes < 1
                || sampleSeconds < 1
                || windowSamples < 1
                || pending < 0
                || rate < 1
                || pushers < 1
                || pullers < 1
                || pullBatch < 1) {
            throw new IllegalArgumentException("need bench.soak.pending >= 0 and the other bench.soak sizes >= 1");
        }
    }

    void run() throws Exception {
        int rounds = Math.max(1, minutes * 60 / sampleSeconds);
        progress(String.format(
                Locale.ROOT,
                "13 soak: %,d pending, then %d jobs/s for %d min in %d rounds of %d s; samples after each round",
                pending,
                rate,
                minutes,
                rounds,
                sampleSeconds));
        Path logDir = Files.createTempDirectory("mykit-bench-soak-");
        try (OwnRedis redis = TestServers.startOwnRedis();
                GatewayJvm gateway = GatewayJvm.start(settings.withRedis(redis.host(), redis.port()), logDir);
                Jedis jedis = new Jedis(redis.host(), redis.port())) {
            CpuMeter meter = new CpuMeter(redis.port(), settings.mysqlPort()).withNodes(List.of(gateway.handle()));
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), meter)
                    .pollTimeout(settings.pollTimeoutMs());
            double prefillRate = pending == 0 ? 0 : driver.prefill(TOPIC, pending, settings.batchClients());
            long storedMs = gateway.awaitStored(STORED_MAX_MS);
            progress(String.format(
                    Locale.ROOT,
                    "13 soak: %,d pending (journal stored in %.1f s); soaking",
                    pending,
                    storedMs / 1000.0));

            List<Sample> samples = new ArrayList<>();
            samples.add(new Sample(0, gateway.heapAfterLastGc(), usedMemory(jedis), journalBytes(), new Histogram()));
            long start = System.nanoTime();
            long pushed = 0;
            long received = 0;
            long missing = 0;
            long unexpected = 0;
            long errors = 0;
            double maxSendLagMs = 0;
            String firstError = null;
            CpuMeter.Sample cpuStart = meter.sample();
            for (int r = 0; r < rounds; r++) {
                LoadDriver.Lateness l = driver.steadyDelivery(
                        TOPIC,
                        rate,
                        sampleSeconds,
                        pushers,
                        pullers,
                        pullBatch,
                        settings.lateMinDelayMs(),
                        settings.lateMaxDelayMs(),
                        DELIVERY_GRACE_MS);
                pushed += l.pushed();
                received += l.received();
                missing += l.missing();
                unexpected += l.unexpected();
                errors += l.pushErrors() + l.pullErrors() + l.finishErrors();
                maxSendLagMs = Math.max(maxSendLagMs, l.sendLagMs().max());
                if (firstError == null && l.firstError() != null) {
                    firstError = l.firstError();
                    notes.accept("first error in scenario 13: " + firstError);
                }
                samples.add(new Sample(
                        (System.nanoTime() - start) / 60e9,
                        gateway.heapAfterLastGc(),
                        usedMemory(jedis),
                        journalBytes(),
                        l.latenessMs()));
                progress(String.format(
                        Locale.ROOT,
                        "13 soak: round %d of %d, lateness p99 %d ms",
                        r + 1,
                        rounds,
                        l.latenessMs().percentile(99)));
            }
            CpuMeter.Usage used = CpuMeter.between(cpuStart, meter.sample());
            report(samples, gateway, pushed, received, missing, unexpected, errors, maxSendLagMs, prefillRate, used);
        }
    }

    private void report(
            List<Sample> samples,
            GatewayJvm gateway,
            long pushed,
            long received,
            long missing,
            long unexpected,
            long errors,
            double maxSendLagMs,
            double prefillRate,
            CpuMeter.Usage used) {
        String scenario = String.format(
                Locale.ROOT, "13 soak, %d/s, %s pending, %d min", rate, ReportTable.count(pending), minutes);
        List<Histogram> windows = new ArrayList<>();
        for (int from = 1; from < samples.size(); from += windowSamples) {
            Histogram window = new Histogram();
            samples.subList(from, Math.min(samples.size(), from + windowSamples))
                    .forEach(sample -> window.addAll(sample.lateness()));
            windows.add(window);
        }
        Histogram first = windows.get(0);
        Histogram last = windows.get(windows.size() - 1);
        String windowText = windowSamples * sampleSeconds + " s";
        table.row(
                scenario,
                "lateness p99, first / last " + windowText + " window",
                String.format(
                        Locale.ROOT,
                        "%d / %d ms (%d windows)",
                        first.percentile(99),
                        last.percentile(99),
                        windows.size()),
                "p99 <= " + IssueTargets.LATENESS_P99_MS + " ms in every window",
                ReportTable.verdict(windows.stream()
                        .allMatch(w -> w.count() > 0 && w.percentile(99) <= IssueTargets.LATENESS_P99_MS)));
        table.row(
                "",
                "  every window's p99",
                windows.stream().map(w -> Long.toString(w.percentile(99))).collect(Collectors.joining(", ", "", " ms")),
                "",
                "");
        table.row("", "  first window", IssueTargets.lateness(first), "", "");
        table.row("", "  last window", IssueTargets.lateness(last), "", "");
        Sample start = samples.get(0);
        Sample end = samples.get(samples.size() - 1);
        table.row(
                "",
                "gateway heap after GC, start / end",
                megabytes(start.heapAfterGc()) + " / " + megabytes(end.heapAfterGc()),
                "",
                "");
        table.row("", "  every sample (MB)", series(samples, Sample::heapAfterGc), "", "");
        table.row(
                "",
                "Redis used_memory, start / end",
                megabytes(start.redisUsed()) + " / " + megabytes(end.redisUsed()),
                "",
                "");
        table.row("", "  every sample (MB)", series(samples, Sample::redisUsed), "", "");
        table.row(
                "",
                "journal data + index, start / end",
                megabytes(start.journalBytes()) + " / " + megabytes(end.journalBytes()),
                "",
                "");
        table.row("", "  every sample (MB)", series(samples, Sample::journalBytes), "", "");
        boolean complete = pushed > 0 && missing == 0 && unexpected == 0 && received == pushed;
        table.row(
                "",
                "received / pushed",
                String.format(
                        "%s / %s; missing %d, unexpected %d",
                        ReportTable.count(received), ReportTable.count(pushed), missing, unexpected),
                "all",
                ReportTable.verdict(complete));
        arrivals.record(scenario, pushed, received, missing, unexpected);
        table.row(
                "",
                "errors; max send lag",
                String.format(Locale.ROOT, "%d; %.0f ms", errors, maxSendLagMs),
                "0",
                ReportTable.verdict(errors == 0));
        table.row("", "prefill (batch)", ReportTable.count(prefillRate) + " jobs/s", "", "");
        table.row("", "gateway JVM", gateway.describe(), "", "");
        table.row("", "CPU (cores)", used.cores(), "", "");
        notes.accept("scenario 13: samples are taken after each " + sampleSeconds + " s round; heap after GC = the"
                + " gateway's heap right after its last collection (JMX); journal size is InnoDB's estimate"
                + " (information_schema), which it refreshes as rows change. Gateway log: " + gateway.log());
    }

    private interface Figure {
        long of(Sample sample);
    }

    private static String series(List<Sample> samples, Figure figure) {
        return samples.stream()
                .map(s -> figure.of(s) < 0 ? "?" : String.format(Locale.ROOT, "%.0f", figure.of(s) / 1048576.0))
                .collect(Collectors.joining(", "));
    }

    private static String megabytes(long bytes) {
        return bytes < 0 ? "? (no GC yet)" : String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }

    private static long usedMemory(Jedis jedis) {
        return jedis.info("memory")
                .lines()
                .filter(line -> line.startsWith("used_memory:"))
                .map(line ->
                        Long.parseLong(line.substring("used_memory:".length()).trim()))
                .findFirst()
                .orElse(-1L);
    }

    /** The journal tables' data and index bytes as InnoDB reports them. */
    private long journalBytes() throws SQLException {
        try (Connection connection = BenchGateway.journal(settings);
                PreparedStatement query = connection.prepareStatement("SELECT COALESCE(SUM(data_length + index_length),"
                        + " 0) FROM information_schema.tables WHERE table_schema = ?")) {
            query.setString(1, settings.database());
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
