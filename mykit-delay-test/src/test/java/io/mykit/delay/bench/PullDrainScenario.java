package io.mykit.delay.bench;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Scenario 10: jobs batch-pushed with one createTime and delay, so that all fall due at one instant after the push,
 * taken by pullers as the issue's harness takes them (4 consumers, GET /get/{topic} and GET /finish one job at a time).
 * Drain rate = jobs / (last finish answered - that instant); then every job must hold a Finish row in the journal.
 * Smaller drains through the same path run first, unmeasured, until the JIT has settled (see {@link #warmUp}).
 *
 * <p>Sizes: {@code -Dbench.pull-drain.jobs} (100,000; 1,000,000 with all; 2,000 quick), {@code .lead} (seconds from the
 * push to the due instant), {@code .pullers}, {@code .pull-batch} (1 = single pulls), {@code .warmup} (jobs per warm-up
 * drain), {@code .warmup-rounds} (most warm-up drains, 5: they stop once the JIT has settled),
 * {@code .fold-wait-seconds} (how long to wait for the journal's rows to catch up after the drain, 300; with the
 * delivery ledger on a 1M fold takes longer on a small buffer pool, and the drain's figure does not depend on it).
 */
final class PullDrainScenario {
    private static final String TOPIC = "bench-pull-drain";
    private static final String WARMUP_TOPIC = "bench-pull-drain-warmup";
    private static final long WARMUP_LEAD_MS = 10_000;
    /** A warm-up drain during which the JIT used less than this many cores ends the warm-up. */
    private static final double WARMUP_JIT_CORES = 0.10;

    private static final long DRAIN_MAX_MS = 900_000;
    private static final long JOURNAL_MAX_MS = 300_000;

    private final BenchSettings settings;
    private final CpuMeter cpu;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final int jobs;
    private final int leadSeconds;
    private final int pullers;
    private final int pullBatch;
    private final int warmupJobs;
    private final int warmupRounds;
    private final long foldWaitMs;

    PullDrainScenario(
            BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.cpu = cpu;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.jobs = settings.size("bench.pull-drain.jobs", 100_000, 1_000_000, 2_000);
        this.leadSeconds = settings.size("bench.pull-drain.lead", 30, 180, 4);
        this.pullers = settings.number("bench.pull-drain.pullers", 4);
        this.pullBatch = settings.number("bench.pull-drain.pull-batch", 1);
        this.warmupJobs = settings.size("bench.pull-drain.warmup", 30_000, 30_000, 0);
        this.warmupRounds = settings.number("bench.pull-drain.warmup-rounds", 5);
        this.foldWaitMs = settings.number("bench.pull-drain.fold-wait-seconds", 300) * 1000L;
        if (jobs < 1 || leadSeconds < 1 || pullers < 1 || pullBatch < 1 || warmupJobs < 0 || warmupRounds < 1) {
            throw new IllegalArgumentException("need bench.pull-drain.jobs, .lead, .pullers, .pull-batch,"
                    + " .warmup-rounds >= 1 and .warmup >= 0");
        }
    }

    void run(RestoreScenario.GatewayStarter gateways) throws Exception {
        progress(String.format(
                Locale.ROOT,
                "10 pull drain: %,d jobs batch-pushed, all due %d s after the push"
                        + " starts, %d pullers taking %d per GET",
                jobs,
                leadSeconds,
                pullers,
                pullBatch));
        try (BenchGateway gateway = gateways.start()) {
            String scenario = String.format(Locale.ROOT, "10 pull drain, %s due at once", ReportTable.count(jobs));
            LoadDriver driver =
                    new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), cpu).pollTimeout(settings.pollTimeoutMs());
            WarmupDrains warmup = warmUp(driver, gateway);

            Set<String> ids = ConcurrentHashMap.newKeySet();
            long createTime = System.currentTimeMillis();
            long due = createTime + leadSeconds * 1000L;
            double pushRate = driver.pushDueAt(TOPIC, jobs, settings.batchClients(), createTime, due - createTime, ids);
            long pushedBeforeDueMs = due - System.currentTimeMillis();
            gateway.awaitJournalDrained(JOURNAL_MAX_MS);
            long journalBeforeDueMs = due - System.currentTimeMillis();
            progress(String.format(
                    Locale.ROOT,
                    "10 pull drain: pushed; all fall due in %.1f s",
                    Math.max(0, journalBeforeDueMs) / 1000.0));

            LoadDriver.Drain d = driver.drain(TOPIC, ids, due, pullers, pullBatch, DRAIN_MAX_MS);
            long writtenMs = gateway.awaitJournalWritten(JOURNAL_MAX_MS);
            long journalMs = gateway.awaitJournalDrained(foldWaitMs);
            long[] journaled = gateway.journaledFinishes(TOPIC);

            long drainMs = Math.max(1, d.lastFinishedAt() - due);
            double rate = d.finished() * 1000.0 / drainMs;
            boolean complete = d.missing() == 0 && d.unexpected() == 0 && d.received() == ids.size();
            table.row(
                    scenario,
                    "drain to pullers (finish answered)",
                    String.format(
                            Locale.ROOT,
                            "%s msg/s (%s finished; last +%s ms after due)",
                            ReportTable.count(rate),
                            ReportTable.count(d.finished()),
                            ReportTable.count(drainMs)),
                    ">= " + ReportTable.count(IssueTargets.DRAIN_PER_S) + " msg/s",
                    ReportTable.verdict(complete && rate >= IssueTargets.DRAIN_PER_S));
            table.row(
                    "",
                    "received / pushed",
                    String.format(
                            "%s / %s; missing %d, duplicates %d, unexpected %d",
                            ReportTable.count(d.received()),
                            ReportTable.count(ids.size()),
                            d.missing(),
                            d.duplicates(),
                            d.unexpected()),
                    "all, once",
                    ReportTable.verdict(complete));
            arrivals.record(scenario, ids.size(), d.received(), d.missing(), d.unexpected());
            table.row(
                    "",
                    "journaled Finish / pushed",
                    String.format(
                            "%s / %s (%s Finish rows); journal caught up %s",
                            ReportTable.count(journaled[0]),
                            ReportTable.count(ids.size()),
                            ReportTable.count(journaled[1]),
                            journalMs < 0
                                    ? "NOT within " + foldWaitMs / 1000 + " s"
                                    : String.format(Locale.ROOT, "%.1f s after", journalMs / 1000.0)),
                    "every one",
                    ReportTable.verdict(journaled[0] == ids.size()));
            // with the delivery ledger on, every Finish is durable once written; the fold into the rows comes later
            table.row(
                    "",
                    "every change written (rows or ledger)",
                    writtenMs < 0
                            ? "NOT within " + JOURNAL_MAX_MS / 1000 + " s"
                            : String.format(Locale.ROOT, "%.1f s after the last finish", writtenMs / 1000.0),
                    "",
                    "");
            table.row("", "lateness p50 / p99 / p99.9 / max", IssueTargets.lateness(d.latenessMs()), "", "");
            table.row(
                    "",
                    "pulls",
                    String.format(
                            "%s GETs of up to %d jobs by %d pullers", ReportTable.count(d.gets()), pullBatch, pullers),
                    "",
                    "");
            table.row(
                    "",
                    "errors",
                    String.format("get %d, finish %d", d.pullErrors(), d.finishErrors()),
                    "0",
                    ReportTable.verdict(d.pullErrors() + d.finishErrors() == 0));
            if (d.firstError() != null) {
                notes.accept("first error in scenario 10: " + d.firstError());
            }
            table.row(
                    "",
                    "batch push",
                    String.format(
                            Locale.ROOT,
                            "%s jobs at %s jobs/s, done %.1f s before due; journal caught up %.1f s before due",
                            ReportTable.count(ids.size()),
                            ReportTable.count(pushRate),
                            pushedBeforeDueMs / 1000.0,
                            journalBeforeDueMs / 1000.0),
                    "before due",
                    ReportTable.verdict(ids.size() == jobs && journalBeforeDueMs > 0));
            table.row("", "warm-up before measuring", warmup.describe(warmupJobs), "", "");
            table.row("", "CPU (cores)", d.cpu().cores(), "", "");
            table.row("", "CPU per delivered job", d.cpu().perJob(d.received()), "", "");
        }
    }

    /** What the unmeasured drains before the measured one did. */
    private record WarmupDrains(int rounds, long millis, double lastJitCores) {
        String describe(int jobsEach) {
            return String.format(
                    Locale.ROOT,
                    "%d drains of %s jobs in %.1f s; JIT %.2f cores in the last (%s %.2f)",
                    rounds,
                    ReportTable.count(jobsEach),
                    millis / 1000.0,
                    lastJitCores,
                    lastJitCores < WARMUP_JIT_CORES ? "settled below" : "NOT settled below",
                    WARMUP_JIT_CORES);
        }
    }

    /**
     * The same drain, smaller and unmeasured, again until the JIT used less than {@value #WARMUP_JIT_CORES} cores
     * during one (at most {@code warmupRounds}): after one, the JIT still took 0.56-0.64 of the 2 cores during the
     * measured drain (issue #14), and the figure was half compilation.
     */
    private WarmupDrains warmUp(LoadDriver driver, BenchGateway gateway) throws Exception {
        if (warmupJobs == 0) {
            return new WarmupDrains(0, 0, Double.NaN);
        }
        long begin = System.currentTimeMillis();
        int rounds = 0;
        double jit = Double.NaN;
        while (rounds < warmupRounds) {
            rounds++;
            progress(String.format(
                    Locale.ROOT,
                    "10 pull drain: warm-up drain %d of at most %d, %,d jobs",
                    rounds,
                    warmupRounds,
                    warmupJobs));
            Set<String> ids = ConcurrentHashMap.newKeySet();
            long createTime = System.currentTimeMillis();
            driver.pushDueAt(WARMUP_TOPIC, warmupJobs, settings.batchClients(), createTime, WARMUP_LEAD_MS, ids);
            jit = driver.drain(WARMUP_TOPIC, ids, createTime + WARMUP_LEAD_MS, pullers, pullBatch, DRAIN_MAX_MS)
                    .cpu()
                    .jit();
            gateway.awaitJournalDrained(JOURNAL_MAX_MS);
            if (jit < WARMUP_JIT_CORES) {
                break;
            }
        }
        return new WarmupDrains(rounds, System.currentTimeMillis() - begin, jit);
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
