package io.mykit.delay.bench;

import io.mykit.delay.config.DelayProperties;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;

/**
 * The mykit-delay bench: starts the gateway in this JVM (or, scenarios 8, 12 and 13, in JVMs of its own) against the
 * local Redis and MariaDB, drives it over HTTP and prints one table with issue #14's targets ({@link IssueTargets})
 * next to what was measured. Run it with {@code mvn -B -q -DskipTests -Pbench -pl mykit-delay-test -am verify}; sizes
 * are {@code -Dbench.*} properties (see {@link BenchSettings}). Scenarios:
 *
 * <pre>
 *  1 single push        2 batch push          3 lateness to pullers     4 restore
 *  5 ActiveMQ lateness  6 RocketMQ lateness   7 ActiveMQ drain          8 cluster of gateway JVMs
 *  9 long-polls         10 pull drain         11 Redis bytes per job    12 fresh gateway JVM
 *  13 soak              14 floors: the same clients against no stores, and the journal's rows alone
 *  beside beanstalkd (a fresh gateway JVM on a private Redis, then beanstalkd with its binlog):
 *  15 lateness and memory  16 drain              17 durable single push    18 fresh start
 *  19 A/B: an older jar and the current one in alternating rounds, CPU per job (-Dbench.ab.jar)
 * </pre>
 */
public final class Bench {
    private static final long JOURNAL_DRAIN_MAX_MS = 120_000;
    private static final String LATE_TOPIC = "bench-late";
    private static final long DELIVERY_GRACE_MS = 30_000;
    /** Least unmeasured load before a lateness measurement, however quiet the JIT already is. */
    static final int WARMUP_MIN_SECONDS = 30;

    private final BenchSettings settings;
    private final CpuMeter cpu;
    private final ReportTable table = new ReportTable("scenario", "measure", "result", "target", "verdict");
    private final List<String> notes = new ArrayList<>();
    private final Arrivals arrivals = new Arrivals();
    /** What the last gateway started in this JVM ran with; null while none was. */
    private String gatewaySetup;

    Bench(BenchSettings settings) {
        this.settings = settings;
        this.cpu = new CpuMeter(settings.redisPort(), settings.mysqlPort());
    }

    public static void main(String[] args) throws Exception {
        if (!BenchJvm.isBenchJvm()) {
            int exit = BenchJvm.runInChild(Bench.class, args);
            if (exit != 0) {
                throw new IllegalStateException("the bench JVM exited with " + exit);
            }
            return;
        }
        // WARN as in the gateways (BenchGateway), already for the brokers that start before one (scenarios 5-7)
        LoggingSystem.get(Bench.class.getClassLoader()).setLogLevel(LoggingSystem.ROOT_LOGGER_NAME, LogLevel.WARN);
        if (!Boolean.getBoolean(BenchJvm.CHILD_PROPERTY)) {
            new Bench(BenchSettings.fromSystemProperties()).run();
            return;
        }
        // the child JVM's own exit: client libraries leave non-daemon threads behind that would keep it alive
        try {
            new Bench(BenchSettings.fromSystemProperties()).run();
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /** Runs the scenarios the settings name, prints the table and returns what arrived of what each pushed. */
    Arrivals run() throws Exception {
        BenchSettings s = settings;
        Instant started = Instant.now();
        double loadBefore = loadAverage();
        progress("Redis " + s.redisHost() + ":" + s.redisPort() + ", MariaDB " + s.mysqlHost() + ":" + s.mysqlPort()
                + "/" + s.database() + "; " + s.mode().name().toLowerCase(Locale.ROOT) + " sizes, scenarios "
                + s.scenarios() + " (1,2,3 by default, about six minutes; 4 restore, 5 and 6 ActiveMQ and RocketMQ"
                + " lateness, 7 ActiveMQ drain, 8 cluster, 9 long-polls, 10 pull drain, 11 Redis memory, 12 fresh"
                + " gateway JVM, 13 soak, 14 floors, 15-18 beside beanstalkd (lateness, drain, push, fresh start),"
                + " 19 A/B (-Dbench.ab.jar) when named in -Dbench.scenarios; all = every one at full size)");
        // while the machine is quiet: what a round trip costs here, the scale every figure below moves with
        String roundTrips = MachineCalibration.measure(s).describe();
        if (s.runs(1)) {
            singlePush();
        }
        if (s.runs(2)) {
            batchPush();
        }
        if (s.runs(3)) {
            lateness();
        }
        if (s.runs(4)) {
            new RestoreScenario(s, cpu, table, notes::add).run(this::startGateway);
        }
        if (s.runs(5) || s.runs(6) || s.runs(7)) {
            BrokerScenario brokers = new BrokerScenario(s, cpu, table, notes::add, arrivals);
            if (s.runs(5)) {
                brokers.lateness(5, BenchActiveMq::start, this::startGateway);
            }
            if (s.runs(6)) {
                brokers.lateness(6, BenchRocketMq::start, this::startGateway);
            }
            if (s.runs(7)) {
                brokers.drain(7, this::startGateway);
            }
        }
        if (s.runs(8)) {
            new ClusterScenario(s, cpu, table, notes::add).run();
        }
        if (s.runs(9)) {
            new LongPollScenario(s, cpu, table, notes::add).run(this::startGateway);
        }
        if (s.runs(10)) {
            new PullDrainScenario(s, cpu, table, notes::add, arrivals).run(this::startGateway);
        }
        if (s.runs(11)) {
            new MemoryScenario(s, cpu, table, notes::add, arrivals).run();
        }
        if (s.runs(12)) {
            new FreshStartScenario(s, cpu, table, notes::add, arrivals).run();
        }
        if (s.runs(13)) {
            new SoakScenario(s, cpu, table, notes::add, arrivals).run();
        }
        if (s.runs(14)) {
            new FloorScenario(s, cpu, table, notes::add, arrivals).run(this::startGateway);
        }
        if (s.runs(15)) {
            new PeerLatenessScenario(s, table, notes::add, arrivals).run();
        }
        if (s.runs(16)) {
            new PeerDrainScenario(s, table, notes::add, arrivals).run();
        }
        if (s.runs(17)) {
            new PeerPushScenario(s, table, notes::add).run();
        }
        if (s.runs(18)) {
            new PeerFreshStartScenario(s, table, notes::add, arrivals).run();
        }
        if (s.runs(BenchSettings.AB_SCENARIO)) {
            new AbScenario(s, table, notes::add, arrivals).run();
        }
        double loadAfter = loadAverage();

        System.out.println();
        System.out.println("mykit-delay bench, " + started.truncatedTo(ChronoUnit.SECONDS) + " ("
                + Math.round((Instant.now().toEpochMilli() - started.toEpochMilli()) / 1000.0) + " s)");
        System.out.printf(
                Locale.ROOT,
                "machine: %d cores, %s %s, Java %s; load average %.1f before, %.1f after%n",
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("java.runtime.version"),
                loadBefore,
                loadAfter);
        System.out.println("servers: Redis " + BenchGateway.redisVersion(s) + " at " + s.redisHost() + ":"
                + s.redisPort() + "; MariaDB " + BenchGateway.mariaDbDescription(s) + " at " + s.mysqlHost() + ":"
                + s.mysqlPort() + "/" + s.database());
        System.out.println("round trips: " + roundTrips);
        if (s.runs(15) || s.runs(16) || s.runs(17) || s.runs(18)) {
            System.out.println("peer: " + peerDescription(s));
        }
        String jvmOptions = String.join(
                " ",
                ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(arg -> arg.startsWith("-X"))
                        .toList());
        String clusterJvms =
                "; scenario 8: gateway JVMs (" + String.join(" ", BenchJvm.GATEWAY_OPTIONS) + "), mode=cluster";
        // scenario 8 alone starts no gateway in this JVM, only its own gateway JVMs
        System.out.println("gateway: "
                + (gatewaySetup == null ? "none in this JVM" : "in this JVM (" + jvmOptions + "), " + gatewaySetup)
                + (s.runs(8) ? clusterJvms : ""));
        System.out.println("load: one blocking HTTP/1.1 keep-alive connection per driver thread (PlainHttp), "
                + s.bodyBytes() + "-byte bodies, no id or createTime in the jobs (the gateway assigns them)");
        System.out.println();
        System.out.print(table.render());
        System.out.println();
        System.out.println("CPU: cores busy on average while measuring. gateway = this JVM's threads other than the "
                + "load driver's; jit = the JIT compilers; gc/other = the rest of this JVM's "
                + "CPU outside live Java threads (GC, threads that ended); all share the machine's cores.");
        System.out.println("Lateness = time the puller got the job - (createTime + delay + priority). 'When a puller "
                + "was waiting' keeps jobs whose GET was sent before they fell due: the gateway's own delay.");
        if (s.runs(15) || s.runs(16) || s.runs(17) || s.runs(18) || s.runs(BenchSettings.AB_SCENARIO)) {
            System.out.println("Peer and A/B scenarios (15-19): CPU per job of each named process (gateway JVM, its"
                    + " Redis, MariaDB; beanstalkd) = its utime + stime in /proc over the window, per job; MariaDB's"
                    + " includes whatever else it served meanwhile. beanstalkd's lateness counts from its INSERTED"
                    + " answer + the delay in whole seconds (its deadline is set on receipt, before the fsync).");
        }
        notes.forEach(note -> System.out.println("Note: " + note));
        return arrivals;
    }

    private void singlePush() throws Exception {
        BenchSettings s = settings;
        progress(String.format(
                "1 single push: %d clients, %d s warm-up, %d x %d s",
                s.pushClients(), s.pushWarmupSeconds(), s.pushWindows(), s.pushWindowSeconds()));
        try (BenchGateway gateway = startGateway()) {
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), s.bodyBytes(), cpu);
            LoadDriver.Throughput t =
                    driver.singlePush(s.pushClients(), s.pushWarmupSeconds(), s.pushWindowSeconds(), s.pushWindows());
            String scenario = "1 single push, " + s.pushClients() + " clients";
            throughputRows(
                    scenario, t, "jobs/s", IssueTargets.SINGLE_PUSH_PER_S, s.pushWindows(), s.pushWindowSeconds());
            journalRow(gateway);
        }
    }

    private void batchPush() throws Exception {
        BenchSettings s = settings;
        progress(String.format(
                "2 batch push: %d clients x %d jobs per call, %d s warm-up, %d x %d s",
                s.batchClients(), s.batchSize(), s.batchWarmupSeconds(), s.batchWindows(), s.batchWindowSeconds()));
        try (BenchGateway gateway = startGateway()) {
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), s.bodyBytes(), cpu);
            LoadDriver.Throughput t = driver.batchPush(
                    s.batchClients(), s.batchSize(), s.batchWarmupSeconds(), s.batchWindowSeconds(), s.batchWindows());
            String scenario = "2 batch push, " + s.batchClients() + " x " + s.batchSize();
            throughputRows(
                    scenario, t, "jobs/s", IssueTargets.BATCH_JOBS_PER_S, s.batchWindows(), s.batchWindowSeconds());
            journalRow(gateway);
        }
    }

    private void lateness() throws Exception {
        BenchSettings s = settings;
        Warmup.Limits warmupLimits = Warmup.Limits.from(settings, WARMUP_MIN_SECONDS);
        progress(String.format(
                "3 lateness: %,d pending, warm-up until the JIT settles (%d-%d s), then %d jobs/s"
                        + " for %d s due %d-%d ms later, %d pullers taking up to %d jobs per GET",
                s.latePending(),
                warmupLimits.minSeconds(),
                warmupLimits.maxSeconds(),
                s.lateRate(),
                s.lateSeconds(),
                s.lateMinDelayMs(),
                s.lateMaxDelayMs(),
                s.latePullers(),
                s.latePullBatch()));
        try (BenchGateway gateway = startGateway()) {
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), s.bodyBytes(), cpu).pollTimeout(s.pollTimeoutMs());
            // pending in the measured topic itself, as in the issue: its pullers' topic holds the million
            double prefillRate =
                    s.latePending() == 0 ? 0 : driver.prefill(LATE_TOPIC, s.latePending(), s.batchClients());
            long prefillDrainMs = gateway.awaitJournalDrained(JOURNAL_DRAIN_MAX_MS);
            Warmup.Result warmup = Warmup.untilJitSettles(
                    cpu,
                    warmupLimits,
                    seconds -> driver.steadyDelivery(
                            "bench-late-warmup",
                            s.lateRate(),
                            seconds,
                            s.latePushers(),
                            s.latePullers(),
                            s.latePullBatch(),
                            s.lateMinDelayMs(),
                            s.lateMaxDelayMs(),
                            DELIVERY_GRACE_MS));
            LoadDriver.Lateness l = driver.steadyDelivery(
                    LATE_TOPIC,
                    s.lateRate(),
                    s.lateSeconds(),
                    s.latePushers(),
                    s.latePullers(),
                    s.latePullBatch(),
                    s.lateMinDelayMs(),
                    s.lateMaxDelayMs(),
                    DELIVERY_GRACE_MS);

            String scenario = String.format(
                    Locale.ROOT, "3 delivery, %d/s, %s pending", s.lateRate(), ReportTable.count(s.latePending()));
            Histogram late = l.latenessMs();
            table.row(
                    scenario,
                    "lateness p50 / p99 / p99.9 / max",
                    IssueTargets.lateness(late),
                    IssueTargets.LATENESS_TARGET,
                    ReportTable.verdict(IssueTargets.latenessMet(late)));
            table.row("", "  when a puller was waiting", IssueTargets.lateness(l.waitingLatenessMs()), "", "");
            String pulls = s.latePullBatch() == ConsumerStyle.STREAM
                    ? s.latePullers() + " streams of the Java client's DelayConsumer"
                    : String.format(
                            "%s GETs of up to %d jobs, %s empty (long-poll timed out)",
                            ReportTable.count(l.gets()), s.latePullBatch(), ReportTable.count(l.emptyGets()));
            table.row("", "pulls", pulls, "", "");
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
                            "%s jobs/s achieved by %d pushers; latency p50 / p99 %s / %s ms; send lag max %d ms",
                            ReportTable.count(l.pushRate()),
                            s.latePushers(),
                            ReportTable.micros(push.percentile(50)),
                            ReportTable.micros(push.percentile(99)),
                            l.sendLagMs().max()),
                    s.lateRate() + "/s",
                    "");
            table.row("", "worst seconds of the push schedule", l.pushSeconds().worst(3), "", "");
            long errors = l.pushErrors() + l.pullErrors() + l.finishErrors();
            table.row(
                    "",
                    "errors",
                    String.format("push %d, get %d, finish %d", l.pushErrors(), l.pullErrors(), l.finishErrors()),
                    "0",
                    ReportTable.verdict(errors == 0));
            firstError("3", l.firstError());
            table.row(
                    "",
                    "prefill (batch)",
                    String.format(
                            "%s jobs at %s jobs/s; journal caught up %s",
                            ReportTable.count(s.latePending()),
                            ReportTable.count(prefillRate),
                            drained(prefillDrainMs)),
                    "",
                    "");
            table.row("", "warm-up before measuring", warmup.describe(warmupLimits), "", "");
            table.row("", "CPU (cores)", l.cpu().cores(), "", "");
            table.row("", "CPU per delivered job", l.cpu().perJob(l.received()), "", "");
            journalRow(gateway);
        }
    }

    /**
     * "beanstalkd 1.12 (/usr/bin/beanstalkd), binlog in the temp dir, -f0: ...; gateway JVMs from this class path":
     * what the peer scenarios compared.
     */
    private static String peerDescription(BenchSettings s) throws Exception {
        java.nio.file.Path beanstalkd = Beanstalkd.executable(s);
        PeerLoad load = PeerLoad.from(s);
        return Beanstalkd.version(beanstalkd) + " (" + beanstalkd + "), binlog under "
                + s.text("bench.beanstalkd.dir", System.getProperty("java.io.tmpdir")) + ", "
                + String.join(
                        "; ",
                        load.modes().stream().map(Beanstalkd.Mode::describe).toList())
                + (load.modes().size() > 1 ? " (verdicts beside the first)" : "")
                + "; gateway: a fresh JVM per scenario ("
                + s.text("bench.gateway.jvm-options", String.join(" ", BenchJvm.GATEWAY_OPTIONS)) + ", "
                + (s.text("bench.gateway.jar", "").isEmpty() ? "this class path" : s.text("bench.gateway.jar", ""))
                + ") on a private redis-server without"
                + " persistence, default settings";
    }

    private BenchGateway startGateway(String... properties) throws Exception {
        BenchGateway gateway = BenchGateway.start(settings, properties);
        gatewaySetup = describe(gateway.properties());
        return gateway;
    }

    private void throughputRows(
            String scenario, LoadDriver.Throughput t, String unit, double target, int windows, int windowSeconds) {
        Histogram latency = t.latencyMicros();
        table.row(
                scenario,
                "throughput",
                String.format(
                        "%s %s (median of %d x %d s; %s-%s)",
                        ReportTable.count(t.median()),
                        unit,
                        windows,
                        windowSeconds,
                        ReportTable.count(t.min()),
                        ReportTable.count(t.max())),
                ">= " + ReportTable.count(target) + "/s",
                ReportTable.verdict(t.median() >= target));
        table.row(
                "",
                "latency p50 / p99 / max",
                String.format(
                        "%s / %s / %s ms",
                        ReportTable.micros(latency.percentile(50)),
                        ReportTable.micros(latency.percentile(99)),
                        ReportTable.micros(latency.max())),
                "",
                "");
        table.row(
                "",
                "errors",
                String.format("%d of %s calls", t.errors(), ReportTable.count(t.calls())),
                "0",
                ReportTable.verdict(t.errors() == 0));
        firstError(scenario.substring(0, 1), t.firstError());
        table.row("", "CPU (cores)", t.cpu().cores(), "", "");
        table.row("", "CPU per job", t.cpu().perJob(t.jobs()), "", "");
    }

    /**
     * How far the journal's state-change writer lags behind at the end of a scenario, and how long it takes to catch
     * up.
     */
    private void journalRow(BenchGateway gateway) throws InterruptedException {
        int backlog = gateway.journalBacklog();
        long drainMs = gateway.awaitJournalDrained(JOURNAL_DRAIN_MAX_MS);
        table.row(
                "",
                "journal lag at end",
                String.format("%s state changes queued; caught up %s", ReportTable.count(backlog), drained(drainMs)),
                "",
                "");
    }

    private static String drained(long ms) {
        return ms < 0
                ? "NOT within " + JOURNAL_DRAIN_MAX_MS / 1000 + " s"
                : String.format(Locale.ROOT, "in %.1f s", ms / 1000.0);
    }

    private static String describe(DelayProperties p) {
        List<String> parts = new ArrayList<>();
        parts.add(p.getBuckets() + " buckets");
        parts.add("timer batch " + p.getTimer().getBatchSize());
        parts.add("journal batch " + p.getJournal().getBatchSize() + " x "
                + p.getJournal().getWriters() + " writers");
        parts.add("pull poll " + p.getPull().getPollInterval().toMillis() + " ms");
        parts.add("Redis pool " + p.getRedis().getPoolSize());
        parts.add("fresh key prefix and truncated journal per scenario");
        return String.join(", ", parts);
    }

    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private void firstError(String scenario, String error) {
        if (error != null) {
            String line = error.replace('\n', ' ');
            notes.add("first error in scenario " + scenario + ": "
                    + (line.length() <= 300 ? line : line.substring(0, 297) + "..."));
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
