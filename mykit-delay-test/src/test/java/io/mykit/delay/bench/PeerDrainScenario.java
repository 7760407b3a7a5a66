package io.mykit.delay.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Scenario 16: a drain beside beanstalkd. N jobs fall due at one instant and {@link PeerLoad}'s consumers take them in
 * each style; drain rate = jobs / (last finish or delete answered - that instant). The gateway (a fresh JVM,
 * {@link PeerGateway}) gets them by batch push with one createTime and delay, as scenario 10; beanstalkd gets them as
 * ready jobs in a tube that {@code pause-tube} holds until the instant, since its delays count whole seconds from each
 * put and N puts could not fall due together (it leaves out beanstalkd's move from its delay heap to its ready heap,
 * microseconds a job). Its puts go in without fsync and it drains after a restart on the same binlog in the asked mode
 * ({@link Beanstalkd#startPrefilled}). Before each measured drain, a smaller one through the same path, unmeasured
 * (beanstalkd's on a throwaway server: only the bench's own client code needs it).
 *
 * <p>Sizes: {@code -Dbench.peer.drain.jobs} (100,000; 1,000,000 with all; 2,000 quick), {@code .lead} (seconds from the
 * gateway's push to the instant: 30; 180; 4), {@code .warmup} (jobs per warm-up drain: 20,000; 20,000; 0).
 */
final class PeerDrainScenario {
    private static final String TOPIC = "bench-peer-drain";
    private static final long WARMUP_LEAD_MS = 10_000;
    /** From beanstalkd's pause-tube to the instant: its consumers connect and wait meanwhile. */
    private static final int PAUSE_SECONDS = 3;

    private static final long DRAIN_MAX_MS = 900_000;
    private static final long JOURNAL_MAX_MS = 300_000;

    private final BenchSettings settings;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final PeerLoad load;
    private final int jobs;
    private final int leadSeconds;
    private final int warmupJobs;

    /** One measured drain: its outcome, how many jobs it was given, and the instant they fell due. */
    private record Run(LoadDriver.Drain drain, long pushed, long dueAt) {
        double rate() {
            return drain.finished() * 1000.0 / Math.max(1, drain.lastFinishedAt() - dueAt);
        }

        String describe() {
            return String.format(
                    Locale.ROOT,
                    "%s msg/s (%s finished; last +%s ms after due)",
                    ReportTable.count(rate()),
                    ReportTable.count(drain.finished()),
                    ReportTable.count(drain.finished() == 0 ? 0 : drain.lastFinishedAt() - dueAt));
        }

        boolean complete() {
            return PeerTargets.complete(drain, pushed) && drain.finished() == pushed;
        }
    }

    PeerDrainScenario(BenchSettings settings, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.load = PeerLoad.from(settings);
        this.jobs = settings.size("bench.peer.drain.jobs", 100_000, 1_000_000, 2_000);
        this.leadSeconds = settings.size("bench.peer.drain.lead", 30, 180, 4);
        this.warmupJobs = settings.size("bench.peer.drain.warmup", 20_000, 20_000, 0);
        if (jobs < 1 || leadSeconds < 1 || warmupJobs < 0) {
            throw new IllegalArgumentException("need bench.peer.drain.jobs, .lead >= 1 and .warmup >= 0");
        }
    }

    void run() throws Exception {
        progress(String.format(
                Locale.ROOT,
                "16 drain beside beanstalkd: %,d jobs due at one instant, %d consumers %s",
                jobs,
                load.pullers(),
                load.styles().stream().map(ConsumerStyle::name).toList()));
        Path logDir = Files.createTempDirectory("mykit-bench-peer-");
        List<Run> gateway = new ArrayList<>();
        try (PeerGateway server = PeerGateway.start(settings, logDir, "")) {
            for (ConsumerStyle style : load.styles()) {
                gateway.add(gatewayDrain(server, style));
            }
        }
        List<List<Run>> peers = new ArrayList<>();
        for (Beanstalkd.Mode mode : load.modes()) {
            List<Run> runs = new ArrayList<>();
            for (ConsumerStyle style : load.styles()) {
                runs.add(beanstalkdDrain(mode, style));
            }
            peers.add(runs);
        }
        for (int i = 0; i < load.styles().size(); i++) {
            int style = i;
            report(
                    load.styles().get(i),
                    gateway.get(i),
                    peers.stream().map(runs -> runs.get(style)).toList());
        }
        notes.accept("scenario 16: the gateway JVM's log is in " + logDir);
    }

    private Run gatewayDrain(PeerGateway server, ConsumerStyle style) throws Exception {
        LoadDriver driver =
                new LoadDriver(server.baseUrl(), settings.bodyBytes(), server.cpu()).pollTimeout(style.timeoutMs());
        String topic = TOPIC + "-" + style.name();
        if (warmupJobs > 0) {
            progress("16: gateway warm-up drain, " + style.name() + " consumers");
            Set<String> ids = ConcurrentHashMap.newKeySet();
            long createTime = System.currentTimeMillis();
            driver.pushDueAt(topic + "-warmup", warmupJobs, settings.batchClients(), createTime, WARMUP_LEAD_MS, ids);
            driver.drain(
                    topic + "-warmup", ids, createTime + WARMUP_LEAD_MS, load.pullers(), style.batch(), DRAIN_MAX_MS);
        }
        progress("16: gateway drain, " + style.name() + " consumers");
        Set<String> ids = ConcurrentHashMap.newKeySet();
        long createTime = System.currentTimeMillis();
        long due = createTime + leadSeconds * 1000L;
        driver.pushDueAt(topic, jobs, settings.batchClients(), createTime, due - createTime, ids);
        if (server.jvm().awaitStored(JOURNAL_MAX_MS) < 0 || System.currentTimeMillis() >= due) {
            notes.accept("scenario 16: the gateway's push of " + jobs + " jobs (and their journal rows) was not"
                    + " done before they fell due; raise -Dbench.peer.drain.lead");
        }
        return new Run(driver.drain(topic, ids, due, load.pullers(), style.batch(), DRAIN_MAX_MS), ids.size(), due);
    }

    private Run beanstalkdDrain(Beanstalkd.Mode mode, ConsumerStyle style) throws Exception {
        String tube = TOPIC + "-" + style.name();
        if (warmupJobs > 0) {
            progress("16: beanstalkd warm-up drain, " + style.name() + " consumers");
            try (Beanstalkd throwaway = Beanstalkd.start(settings, Beanstalkd.Mode.NEVER)) {
                drainOnce(throwaway, tube, warmupJobs, style, prefilledIds(throwaway, tube, warmupJobs));
            }
        }
        progress("16: " + mode.label() + " drain, " + style.name() + " consumers");
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        try (Beanstalkd server =
                Beanstalkd.startPrefilled(settings, mode, filling -> ids.addAll(prefilledIds(filling, tube, jobs)))) {
            return drainOnce(server, tube, jobs, style, ids);
        }
    }

    private Set<Long> prefilledIds(Beanstalkd server, String tube, int count) throws InterruptedException {
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        new BeanstalkDriver(server, settings.bodyBytes(), CpuMeter.ofServers(Map.of("beanstalkd", server.handle())))
                .prefill(tube, count, 0, settings.batchClients(), ids);
        return ids;
    }

    /** Holds {@code tube}'s ready jobs with pause-tube, then drains them from the instant the pause ends. */
    private Run drainOnce(Beanstalkd server, String tube, int count, ConsumerStyle style, Set<Long> ids)
            throws Exception {
        try (BeanstalkClient client = server.connect()) {
            client.pauseTube(tube, PAUSE_SECONDS);
        }
        // the pause ends PAUSE_SECONDS after beanstalkd read the command: no later than this
        long due = System.currentTimeMillis() + PAUSE_SECONDS * 1000L;
        BeanstalkDriver driver = new BeanstalkDriver(
                server, settings.bodyBytes(), CpuMeter.ofServers(Map.of("beanstalkd", server.handle())));
        return new Run(
                driver.drain(tube, ids, due, load.pullers(), style.batch(), style.timeoutMs(), DRAIN_MAX_MS),
                count,
                due);
    }

    private void report(ConsumerStyle style, Run gateway, List<Run> peers) {
        String scenario = String.format(
                Locale.ROOT, "16 drain beside beanstalkd, %s due at once, %s", ReportTable.count(jobs), style.name());
        Run reference = peers.get(0);
        String label = load.reference().label();
        boolean counts = reference.complete();
        table.row(
                scenario,
                "gateway drain (finish answered)",
                gateway.describe(),
                String.format(
                        Locale.ROOT,
                        ">= %.1fx %s: >= %s msg/s",
                        PeerTargets.DRAIN_RATIO,
                        label,
                        ReportTable.count(PeerTargets.DRAIN_RATIO * reference.rate())),
                PeerTargets.verdictBeside(
                        counts, gateway.complete() && gateway.rate() >= PeerTargets.DRAIN_RATIO * reference.rate()));
        for (int m = 0; m < peers.size(); m++) {
            table.row(
                    "",
                    load.modes().get(m).label() + " drain (delete answered)",
                    peers.get(m).describe(),
                    "",
                    "");
        }
        table.row("", "gateway / " + label, PeerTargets.ratio(gateway.rate(), reference.rate()), "", "");
        LoadDriver.Drain g = gateway.drain();
        table.row(
                "",
                "gateway received / pushed",
                PeerTargets.received(g.received(), gateway.pushed(), g.missing(), g.duplicates(), g.unexpected()),
                "all",
                ReportTable.verdict(gateway.complete()));
        arrivals.record(scenario + " gateway", gateway.pushed(), g.received(), g.missing(), g.unexpected());
        for (int m = 0; m < peers.size(); m++) {
            Run peer = peers.get(m);
            LoadDriver.Drain d = peer.drain();
            String name = load.modes().get(m).label();
            table.row(
                    "",
                    name + " received / put",
                    PeerTargets.received(d.received(), peer.pushed(), d.missing(), d.duplicates(), d.unexpected()),
                    "all",
                    ReportTable.verdict(peer.complete()));
            arrivals.record(scenario + " " + name, peer.pushed(), d.received(), d.missing(), d.unexpected());
        }
        table.row(
                "",
                "consumers",
                load.pullers() + " x gateway: " + style.gatewayCalls() + "; beanstalkd: " + style.beanstalkdCalls(),
                "",
                "");
        table.row("", "gateway CPU per delivered job", g.cpu().perJob(g.received()), "", "");
        for (int m = 0; m < peers.size(); m++) {
            LoadDriver.Drain d = peers.get(m).drain();
            table.row(
                    "",
                    load.modes().get(m).label() + " CPU per delivered job",
                    d.cpu().perJob(d.received()),
                    "",
                    "");
        }
        table.row(
                "",
                "errors",
                String.format(
                        "gateway get %d, finish %d; %s",
                        g.pullErrors(),
                        g.finishErrors(),
                        label + " reserve " + reference.drain().pullErrors() + ", delete "
                                + reference.drain().finishErrors()),
                "0",
                ReportTable.verdict(g.pullErrors() + g.finishErrors() == 0));
        firstError("gateway", g.firstError());
        firstError(label, reference.drain().firstError());
    }

    private void firstError(String who, String error) {
        if (error != null) {
            notes.accept("first error in scenario 16 (" + who + "): " + error.replace('\n', ' '));
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
