package io.mykit.delay.bench;

import io.mykit.delay.config.DelayProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.curator.test.TestingServer;

/**
 * Scenario 8: the gateway in cluster mode, 1, 2 and 3 nodes on this machine. A ZooKeeper server runs in this JVM
 * (curator-test); for each node count a fresh cluster of gateway JVMs ({@link BenchCluster}) shares the Redis, the
 * journal database and the buckets, and the load driver spreads its threads over the nodes round-robin.
 *
 * <ul>
 *   <li>Warm-up: the steady load below for {@code warmup} seconds, unmeasured (the node JVMs are fresh).
 *   <li>Lateness: single pushes at a steady rate, each due 1-2 s later, long-poll batch pulls and batch finishes;
 *       lateness = the puller got the job - its due time.
 *   <li>Drain: jobs batch-pushed with one createTime and delay, all due at one instant after the push; pullers wait in
 *       long-polls before it. Drain rate = jobs / (last finish answered - that instant).
 *   <li>Share: the journal's Ready rows by host (the node whose timer handed the job over) and the buckets each node
 *       pumps (GET /cluster).
 * </ul>
 *
 * Then, on the bench's Redis alone, what fencing costs one pump ({@link PumpFencing}). Sizes: {@code -Dbench.cluster.*}
 * (see {@link Sizes}).
 */
final class ClusterScenario {
    private static final String WARMUP_TOPIC = "bench-cluster-warmup";
    private static final String LATE_TOPIC = "bench-cluster-late";
    private static final String DRAIN_TOPIC = "bench-cluster-drain";
    private static final long DELIVERY_GRACE_MS = 30_000;
    private static final long DRAIN_MAX_MS = 180_000;
    private static final long JOURNAL_MAX_MS = 60_000;

    /** Sizes from {@code -Dbench.cluster.*}; the pull and push threads are spread over the nodes. */
    record Sizes(
            List<Integer> nodeCounts,
            int drainJobs,
            int drainLeadSeconds,
            int rate,
            int seconds,
            int pushers,
            int pullers,
            int pullBatch,
            int minDelayMs,
            int maxDelayMs,
            int warmupSeconds,
            int fenceBatch,
            int fencePairs,
            int fenceWarmupPairs) {
        static Sizes from(BenchSettings s) {
            List<Integer> counts = Arrays.stream(s.text("bench.cluster.nodes", s.quick() ? "1" : "1,2,3")
                            .split(","))
                    .map(String::trim)
                    .map(Integer::parseInt)
                    .toList();
            Sizes z = new Sizes(
                    counts,
                    s.size("bench.cluster.drain.jobs", 50_000, 50_000, 2_000),
                    s.size("bench.cluster.drain.lead", 20, 20, 5),
                    s.size("bench.cluster.rate", 500, 500, 100),
                    s.size("bench.cluster.seconds", 20, 20, 3),
                    s.number("bench.cluster.pushers", 16),
                    s.number("bench.cluster.pullers", 6),
                    s.number("bench.cluster.pull-batch", 100),
                    s.number("bench.cluster.min-delay", 1000),
                    s.number("bench.cluster.max-delay", 2000),
                    s.size("bench.cluster.warmup", 10, 10, 0),
                    s.number(
                            "bench.cluster.fence.batch",
                            new DelayProperties().getTimer().getBatchSize()),
                    s.size("bench.cluster.fence.pairs", 5_000, 5_000, 100),
                    s.size("bench.cluster.fence.warmup", 1_000, 1_000, 10));
            if (counts.isEmpty()
                    || counts.stream().anyMatch(n -> n < 1)
                    || z.drainJobs < 1
                    || z.drainLeadSeconds < 1
                    || z.rate < 1
                    || z.seconds < 1
                    || z.pushers < 1
                    || z.pullers < 1
                    || z.pullBatch < 1
                    || z.warmupSeconds < 0
                    || z.fenceBatch < 1
                    || z.fencePairs < 1
                    || z.fenceWarmupPairs < 0) {
                throw new IllegalArgumentException("need bench.cluster.nodes >= 1 each, .warmup and .fence.warmup"
                        + " >= 0 and the other bench.cluster sizes >= 1");
            }
            if (z.minDelayMs < 0 || z.maxDelayMs < z.minDelayMs) {
                throw new IllegalArgumentException("need 0 <= bench.cluster.min-delay <= bench.cluster.max-delay");
            }
            return z;
        }
    }

    /** The headline figures of one node count, for the summary row. */
    private record Headline(double drainPerS, long lateP99) {}

    private final BenchSettings settings;
    private final Sizes sizes;
    private final CpuMeter cpu;
    private final ReportTable table;
    private final Consumer<String> notes;

    ClusterScenario(BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes) {
        this.settings = settings;
        this.sizes = Sizes.from(settings);
        this.cpu = cpu;
        this.table = table;
        this.notes = notes;
    }

    void run() throws Exception {
        Sizes z = sizes;
        progress(String.format(
                Locale.ROOT,
                "8 cluster: %s nodes; each: %d s warm-up, %d jobs/s for %d s, drain of"
                        + " %,d due %d s after their push; then fencing per pump",
                z.nodeCounts,
                z.warmupSeconds,
                z.rate,
                z.seconds,
                z.drainJobs,
                z.drainLeadSeconds));
        Path logs = Files.createTempDirectory("mykit-bench-cluster-");
        List<Headline> headlines = new ArrayList<>();
        // the ZooKeeper server's admin HTTP server would take port 8080
        System.setProperty("zookeeper.admin.enableServer", "false");
        try (TestingServer zookeeper = new TestingServer(-1, true)) {
            for (int count : z.nodeCounts) {
                headlines.add(nodesOrRow(count, zookeeper.getConnectString(), logs));
            }
        }
        List<String> drains = new ArrayList<>();
        List<String> lates = new ArrayList<>();
        headlines.forEach(h -> {
            drains.add(h == null ? "-" : ReportTable.count(h.drainPerS()));
            lates.add(h == null ? "-" : Long.toString(h.lateP99()));
        });
        String counts =
                String.join(" / ", z.nodeCounts.stream().map(String::valueOf).toList());
        table.row(
                "8 cluster, summary",
                counts + " nodes",
                String.format(
                        "drain %s jobs/s; lateness p99 %s ms", String.join(" / ", drains), String.join(" / ", lates)),
                "",
                "");
        fencing();
        notes.accept("cluster scenario: gateway JVMs started by the bench ("
                + String.join(" ", BenchJvm.GATEWAY_OPTIONS)
                + "), logs in " + logs + "; ZooKeeper in the bench JVM. Share = the"
                + " journal's Ready rows by host: the node whose timer handed the job over. Pullers, pushers and"
                + " finishers are spread over the nodes round-robin, so most pulls wait on a "
                + "node that does not own"
                + " the job's bucket and are woken across nodes.");
    }

    /** {@link #nodes}, or a row saying why it failed (null): the other node counts still run. */
    private Headline nodesOrRow(int count, String zookeeper, Path logs) {
        try {
            return nodes(count, zookeeper, logs);
        } catch (Exception e) {
            String line = e.toString().replace('\n', ' ');
            table.row(
                    String.format(Locale.ROOT, "8 cluster, %d node%s", count, count == 1 ? "" : "s"),
                    "run",
                    "failed: " + (line.length() <= 200 ? line : line.substring(0, 197) + "..."),
                    "completes",
                    ReportTable.verdict(false));
            e.printStackTrace();
            return null;
        }
    }

    /** One node count: start, warm up, lateness, drain, share; returns the figures for the summary. */
    private Headline nodes(int count, String zookeeper, Path logs) throws Exception {
        Sizes z = sizes;
        String scenario = String.format(Locale.ROOT, "8 cluster, %d node%s", count, count == 1 ? "" : "s");
        progress(scenario + ": starting the gateway JVMs");
        double loadBefore = Bench.loadAverage();
        long startedAt = System.currentTimeMillis();
        try (BenchCluster cluster = BenchCluster.start(settings, zookeeper, count, logs)) {
            long startMs = System.currentTimeMillis() - startedAt;
            CpuMeter meter = cpu.withNodes(cluster.processes());
            LoadDriver driver = new LoadDriver(cluster.baseUrls(), settings.bodyBytes(), meter);
            Map<String, List<Integer>> pumping = cluster.pumpingBuckets();
            if (z.warmupSeconds > 0) {
                progress(scenario + ": warm-up");
                driver.steadyDelivery(
                        WARMUP_TOPIC,
                        z.rate,
                        z.warmupSeconds,
                        z.pushers,
                        z.pullers,
                        z.pullBatch,
                        z.minDelayMs,
                        z.maxDelayMs,
                        DELIVERY_GRACE_MS);
            }
            progress(scenario + ": lateness at " + z.rate + " jobs/s");
            LoadDriver.Lateness late = driver.steadyDelivery(
                    LATE_TOPIC,
                    z.rate,
                    z.seconds,
                    z.pushers,
                    z.pullers,
                    z.pullBatch,
                    z.minDelayMs,
                    z.maxDelayMs,
                    DELIVERY_GRACE_MS);

            progress(scenario + ": drain");
            Set<String> ids = ConcurrentHashMap.newKeySet();
            long createTime = System.currentTimeMillis();
            long due = createTime + z.drainLeadSeconds * 1000L;
            double pushRate = driver.pushDueAt(
                    DRAIN_TOPIC, z.drainJobs, settings.batchClients(), createTime, due - createTime, ids);
            long pushedBeforeDueMs = due - System.currentTimeMillis();
            long storedBeforeDueMs = awaitStored(cluster, due);
            LoadDriver.Drain drain = driver.drain(DRAIN_TOPIC, ids, due, z.pullers, z.pullBatch, DRAIN_MAX_MS);

            Map<String, Long> drainShare = cluster.handOvers(DRAIN_TOPIC, ids.size(), JOURNAL_MAX_MS);
            Map<String, Long> lateShare = cluster.handOvers(LATE_TOPIC, late.pushed(), JOURNAL_MAX_MS);
            Map<String, List<Integer>> pumpingAfter = cluster.pumpingBuckets();
            if (!pumpingAfter.equals(pumping)) {
                notes.accept(
                        scenario + ": bucket ownership changed while measuring: " + pumping + " -> " + pumpingAfter);
            }

            long drainMs = Math.max(1, drain.lastFinishedAt() - due);
            double drainPerS = drain.finished() * 1000.0 / drainMs;
            table.row(
                    scenario,
                    "drain, " + ReportTable.count(z.drainJobs) + " due at once",
                    String.format(
                            Locale.ROOT,
                            "%s jobs/s (%s finished, last +%s ms after due)",
                            ReportTable.count(drainPerS),
                            ReportTable.count(drain.finished()),
                            ReportTable.count(drainMs)),
                    "",
                    "");
            table.row("", "  lateness in the drain p50 / p99 / max", latenessText(drain.latenessMs()), "", "");
            Histogram lateness = late.latenessMs();
            table.row(
                    "",
                    String.format(Locale.ROOT, "lateness at %d/s p50 / p99 / max", z.rate),
                    latenessText(lateness),
                    "p99 <= " + IssueTargets.LATENESS_P99_MS + " ms",
                    ReportTable.verdict(
                            lateness.count() > 0 && lateness.percentile(99) <= IssueTargets.LATENESS_P99_MS));
            Histogram waiting = late.waitingLatenessMs();
            table.row(
                    "",
                    "  when a puller was waiting",
                    String.format(
                            "%d / %d / %d ms (n=%s)",
                            waiting.percentile(50),
                            waiting.percentile(99),
                            waiting.max(),
                            ReportTable.count(waiting.count())),
                    "",
                    "");
            boolean complete = late.pushed() > 0
                    && late.missing() == 0
                    && late.duplicates() == 0
                    && late.unexpected() == 0
                    && drain.missing() == 0
                    && drain.duplicates() == 0
                    && drain.unexpected() == 0
                    && ids.size() == z.drainJobs;
            table.row(
                    "",
                    "received / pushed",
                    String.format(
                            "steady %s / %s, drain %s / %s; missing %d, duplicates %d, unexpected %d",
                            ReportTable.count(late.received()),
                            ReportTable.count(late.pushed()),
                            ReportTable.count(drain.received()),
                            ReportTable.count(ids.size()),
                            late.missing() + drain.missing(),
                            late.duplicates() + drain.duplicates(),
                            late.unexpected() + drain.unexpected()),
                    "all, once",
                    ReportTable.verdict(complete));
            long errors = late.pushErrors()
                    + late.pullErrors()
                    + late.finishErrors()
                    + drain.pullErrors()
                    + drain.finishErrors();
            table.row(
                    "",
                    "errors",
                    String.format(
                            "push %d, get %d, finish %d",
                            late.pushErrors(),
                            late.pullErrors() + drain.pullErrors(),
                            late.finishErrors() + drain.finishErrors()),
                    "0",
                    ReportTable.verdict(errors == 0));
            firstError(late.firstError());
            firstError(drain.firstError());
            shareRows(cluster, pumping, drainShare, lateShare, drain.cpu(), late.cpu());
            table.row("", "CPU (cores), drain", drain.cpu().cores(), "", "");
            table.row("", "CPU per drained job", drain.cpu().perJob(drain.finished()), "", "");
            table.row("", "CPU (cores), " + z.rate + "/s", late.cpu().cores(), "", "");
            table.row(
                    "",
                    "batch push before the drain",
                    String.format(
                            Locale.ROOT,
                            "%s jobs at %s jobs/s, done %.1f s before due; journal had them stored %s",
                            ReportTable.count(ids.size()),
                            ReportTable.count(pushRate),
                            pushedBeforeDueMs / 1000.0,
                            storedBeforeDueMs < 0
                                    ? "only after due"
                                    : String.format(Locale.ROOT, "%.1f s before due", storedBeforeDueMs / 1000.0)),
                    "before due",
                    ReportTable.verdict(ids.size() == z.drainJobs && storedBeforeDueMs >= 0));
            table.row(
                    "",
                    "clients; start; load average",
                    String.format(
                            Locale.ROOT,
                            "%d pushers, %d pullers (up"
                                    + " to %d jobs per GET), %d finishers over %d node%s; warm-up %d "
                                    + "s at %d/s; JVMs serving"
                                    + " and buckets shared in %.0f s; load %.1f-%.1f",
                            z.pushers,
                            z.pullers,
                            z.pullBatch,
                            LoadDriver.FINISHERS,
                            count,
                            count == 1 ? "" : "s",
                            z.warmupSeconds,
                            z.rate,
                            startMs / 1000.0,
                            loadBefore,
                            Bench.loadAverage()),
                    "",
                    "");
            return new Headline(drainPerS, lateness.percentile(99));
        }
    }

    /** One row per node: buckets it pumps, its hand-overs in the drain and at the steady rate, its CPU in each. */
    private void shareRows(
            BenchCluster cluster,
            Map<String, List<Integer>> pumping,
            Map<String, Long> drainShare,
            Map<String, Long> lateShare,
            CpuMeter.Usage drainCpu,
            CpuMeter.Usage lateCpu) {
        long drainTotal =
                drainShare.values().stream().mapToLong(Long::longValue).sum();
        long lateTotal = lateShare.values().stream().mapToLong(Long::longValue).sum();
        int buckets = pumping.values().stream().mapToInt(List::size).sum();
        List<BenchCluster.Node> nodes = cluster.nodes();
        for (int n = 0; n < nodes.size(); n++) {
            String id = nodes.get(n).id();
            long drained = drainShare.getOrDefault(id, 0L);
            long steady = lateShare.getOrDefault(id, 0L);
            table.row(
                    "",
                    "node " + id,
                    String.format(
                            Locale.ROOT,
                            "%d of %d buckets; hand-overs: drain %s (%s), steady %s (%s); CPU %.2f / %.2f cores",
                            pumping.getOrDefault(id, List.of()).size(),
                            buckets,
                            ReportTable.count(drained),
                            percent(drained, drainTotal),
                            ReportTable.count(steady),
                            percent(steady, lateTotal),
                            drainCpu.nodes()[n],
                            lateCpu.nodes()[n]),
                    "",
                    "");
        }
        long other = drainShare.entrySet().stream()
                .filter(e -> nodes.stream().noneMatch(node -> node.id().equals(e.getKey())))
                .mapToLong(Map.Entry::getValue)
                .sum();
        if (other > 0) {
            notes.accept("cluster scenario: " + other + " drain hand-overs journaled by hosts other than the nodes: "
                    + drainShare);
        }
    }

    /** Fencing overhead per pump, on the bench's Redis alone (no gateway running). */
    private void fencing() {
        Sizes z = sizes;
        progress(String.format(
                Locale.ROOT,
                "8 fencing: pumpDue of %d due jobs, %,d pairs after %,d unmeasured",
                z.fenceBatch,
                z.fencePairs,
                z.fenceWarmupPairs));
        double loadBefore = Bench.loadAverage();
        PumpFencing.Result r = PumpFencing.measure(settings, z.fenceBatch, z.fencePairs, z.fenceWarmupPairs);
        String scenario = "8 fencing, pumpDue of " + r.batch() + " due jobs";
        table.row(scenario, "empty token (standalone, not checked)", pumpText(r.unfencedNs()), "", "");
        table.row("", "claimed token (FenceTokens + claim)", pumpText(r.fencedNs()), "", "");
        Histogram d = r.differenceNs();
        long[] interval = r.medianInterval();
        table.row(
                "",
                "overhead per pump (claimed - empty)",
                String.format(
                        Locale.ROOT,
                        "%+.1f us median of %s back-to-back pairs (95%% CI %+.1f..%+.1f us); load %.1f-%.1f",
                        d.percentile(50) / 1000.0,
                        ReportTable.count(d.count()),
                        interval[0] / 1000.0,
                        interval[1] / 1000.0,
                        loadBefore,
                        Bench.loadAverage()),
                "",
                "");
    }

    private static String pumpText(Histogram ns) {
        return String.format(
                Locale.ROOT,
                "p50 %.1f us, mean %.1f us, p99 %.1f us per pump (n=%s)",
                ns.percentile(50) / 1000.0,
                ns.mean() / 1000.0,
                ns.percentile(99) / 1000.0,
                ReportTable.count(ns.count()));
    }

    /** Waits until the journal holds every drain job as stored; ms before due it got there, -1 if only after. */
    private static long awaitStored(BenchCluster cluster, long due) throws Exception {
        while (cluster.notYetStored(DRAIN_TOPIC) > 0) {
            if (System.currentTimeMillis() >= due) {
                return -1;
            }
            Thread.sleep(200);
        }
        return Math.max(0, due - System.currentTimeMillis());
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    private static String latenessText(Histogram ms) {
        return String.format(
                "%d / %d / %d ms (n=%s, min %d)",
                ms.percentile(50), ms.percentile(99), ms.max(), ReportTable.count(ms.count()), ms.min());
    }

    private void firstError(String error) {
        if (error != null) {
            String line = error.replace('\n', ' ');
            notes.accept(
                    "first error in scenario 8: " + (line.length() <= 300 ? line : line.substring(0, 297) + "..."));
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
