package io.mykit.delay.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Scenario 15: lateness beside beanstalkd. A fresh gateway JVM ({@link PeerGateway}) and then beanstalkd (each fsync
 * mode asked, {@link PeerLoad}) each get N far-future jobs pending in the measured topic or tube, then for each
 * consumer style the same unmeasured warm-up load and the measured one: {@link PeerLoad}'s producers at its rate, each
 * job due 1-2 s after its push, its consumers taking them. Printed per style: lateness p50 / p99 / p99.9 / max of both,
 * the gateway's beside beanstalkd's p99 + 5 ms and p99.9 + 10 ms, and CPU per delivered job of every server (gateway,
 * its Redis, MariaDB; beanstalkd). Once: bytes per pending job, the private Redis' RSS growth over the N beside
 * beanstalkd's.
 *
 * <p>beanstalkd gets its N pending jobs while it runs without fsync and serves the measured load after a restart on the
 * same binlog in the asked mode ({@link Beanstalkd#startPrefilled}); its bytes per pending job are its RSS growth over
 * those puts. Sizes: {@code -Dbench.peer.pending} (100,000; 1,000,000 with all; 2,000 quick), {@code .seconds} (30; 60;
 * 3), {@code .warmup} (seconds of unmeasured load per style before each measurement: 60; 60; 0) and {@link PeerLoad}'s.
 */
final class PeerLatenessScenario {
    private static final String TOPIC = "bench-peer-late";
    private static final long JOURNAL_MAX_MS = 300_000;

    private final BenchSettings settings;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final PeerLoad load;
    private final int pending;
    private final int seconds;
    private final int warmupSeconds;

    /** One server's runs: its lateness per style, and what its pending jobs cost in memory. */
    private record Runs(
            String label,
            Map<ConsumerStyle, LoadDriver.Lateness> byStyle,
            long memoryBefore,
            long memoryAfter,
            String memoryDetail) {
        double bytesPerPending(int pending) {
            return pending == 0 || memoryBefore < 0 || memoryAfter < 0
                    ? -1
                    : (memoryAfter - memoryBefore) / (double) pending;
        }
    }

    PeerLatenessScenario(BenchSettings settings, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.load = PeerLoad.from(settings);
        this.pending = settings.size("bench.peer.pending", 100_000, 1_000_000, 2_000);
        this.seconds = settings.size("bench.peer.seconds", 30, 60, 3);
        this.warmupSeconds = settings.size("bench.peer.warmup", 60, 60, 0);
        if (pending < 0 || seconds < 1 || warmupSeconds < 0) {
            throw new IllegalArgumentException("need bench.peer.pending >= 0, .seconds >= 1, .warmup >= 0");
        }
    }

    void run() throws Exception {
        progress(String.format(
                Locale.ROOT,
                "15 lateness beside beanstalkd: %,d pending, %d s warm-up, then %d jobs/s"
                        + " for %d s from %d producers, %s; consumers %s",
                pending,
                warmupSeconds,
                load.rate(),
                seconds,
                load.pushers(),
                load.delays(),
                load.styles().stream().map(ConsumerStyle::name).toList()));
        Path logDir = Files.createTempDirectory("mykit-bench-peer-");
        Runs gateway = gateway(logDir);
        List<Runs> peers = new ArrayList<>();
        for (Beanstalkd.Mode mode : load.modes()) {
            peers.add(beanstalkd(mode));
        }
        report(gateway, peers);
        notes.accept("scenario 15: the gateway JVMs' logs are in " + logDir);
    }

    private Runs gateway(Path logDir) throws Exception {
        try (PeerGateway gateway = PeerGateway.start(settings, logDir, "")) {
            LoadDriver prefiller = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), gateway.cpu());
            long before = gateway.redisRssBytes();
            long usedBefore = gateway.redisUsedMemory();
            double prefillRate = pending == 0 ? 0 : prefiller.prefill(TOPIC, pending, settings.batchClients());
            long storedMs = gateway.jvm().awaitStored(JOURNAL_MAX_MS);
            long after = gateway.redisRssBytes();
            long usedAfter = gateway.redisUsedMemory();
            String detail = String.format(
                    Locale.ROOT,
                    "used_memory %s B per job; prefill %s jobs/s by batch push, journal stored them %s",
                    pending == 0 ? "-" : ReportTable.count((usedAfter - usedBefore) / (double) pending),
                    ReportTable.count(prefillRate),
                    storedMs < 0 ? "NOT within " + JOURNAL_MAX_MS / 1000 + " s" : "in " + storedMs / 1000 + " s");
            Map<ConsumerStyle, LoadDriver.Lateness> byStyle = new LinkedHashMap<>();
            for (ConsumerStyle style : load.styles()) {
                progress("15: gateway, " + style.name() + " consumers");
                LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), gateway.cpu())
                        .pollTimeout(style.timeoutMs());
                if (warmupSeconds > 0) {
                    driver.steadyDelivery(
                            TOPIC + "-warmup-" + style.name(),
                            load.rate(),
                            warmupSeconds,
                            load.pushers(),
                            load.pullers(),
                            style.batch(),
                            load.minDelayMs(),
                            load.maxDelayMs(),
                            PeerLoad.DELIVERY_GRACE_MS);
                }
                // pending in the measured topic itself: its consumers' topic holds the N
                byStyle.put(
                        style,
                        driver.steadyDelivery(
                                TOPIC,
                                load.rate(),
                                seconds,
                                load.pushers(),
                                load.pullers(),
                                style.batch(),
                                load.minDelayMs(),
                                load.maxDelayMs(),
                                PeerLoad.DELIVERY_GRACE_MS));
            }
            return new Runs("gateway", byStyle, before, after, detail);
        }
    }

    private Runs beanstalkd(Beanstalkd.Mode mode) throws Exception {
        long[] memory = {-1, -1};
        String[] detail = {""};
        try (Beanstalkd server = Beanstalkd.startPrefilled(settings, mode, filling -> {
            memory[0] = filling.rssBytes();
            Set<Long> ids = ConcurrentHashMap.newKeySet();
            double rate = pending == 0
                    ? 0
                    : new BeanstalkDriver(
                                    filling,
                                    settings.bodyBytes(),
                                    CpuMeter.ofServers(Map.of("beanstalkd", filling.handle())))
                            .prefill(TOPIC, pending, BeanstalkDriver.FAR_DELAY_SECONDS, settings.batchClients(), ids);
            memory[1] = filling.rssBytes();
            detail[0] = String.format(
                    Locale.ROOT,
                    "stats current-jobs-delayed %s; prefill %s jobs/s by pipelined"
                            + " puts without fsync, replayed from the binlog (%s MB) on restart",
                    filling.stats().get("current-jobs-delayed"),
                    ReportTable.count(rate),
                    ReportTable.count(filling.binlogBytes() / 1048576.0));
        })) {
            CpuMeter meter = CpuMeter.ofServers(Map.of("beanstalkd", server.handle()));
            Map<ConsumerStyle, LoadDriver.Lateness> byStyle = new LinkedHashMap<>();
            for (ConsumerStyle style : load.styles()) {
                progress("15: " + mode.label() + ", " + style.name() + " consumers");
                BeanstalkDriver driver = new BeanstalkDriver(server, settings.bodyBytes(), meter);
                if (warmupSeconds > 0) {
                    driver.steadyDelivery(
                            TOPIC + "-warmup-" + style.name(),
                            load.rate(),
                            warmupSeconds,
                            load.pushers(),
                            load.pullers(),
                            style.batch(),
                            load.minDelayMs(),
                            load.maxDelayMs(),
                            style.timeoutMs(),
                            PeerLoad.DELIVERY_GRACE_MS);
                }
                // the pending jobs wait in the measured tube, as the gateway's in the measured topic
                byStyle.put(
                        style,
                        driver.steadyDelivery(
                                TOPIC,
                                load.rate(),
                                seconds,
                                load.pushers(),
                                load.pullers(),
                                style.batch(),
                                load.minDelayMs(),
                                load.maxDelayMs(),
                                style.timeoutMs(),
                                PeerLoad.DELIVERY_GRACE_MS));
            }
            return new Runs(mode.label(), byStyle, memory[0], memory[1], detail[0]);
        }
    }

    private void report(Runs gateway, List<Runs> peers) {
        Runs reference = peers.get(0);
        for (ConsumerStyle style : load.styles()) {
            String scenario = String.format(
                    Locale.ROOT,
                    "15 beside beanstalkd, %d/s, %s pending, %s",
                    load.rate(),
                    ReportTable.count(pending),
                    style.name());
            LoadDriver.Lateness g = gateway.byStyle().get(style);
            LoadDriver.Lateness r = reference.byStyle().get(style);
            boolean counts = PeerTargets.keptUp(r, load.rate());
            table.row(
                    scenario,
                    "gateway lateness p50 / p99 / p99.9 / max",
                    IssueTargets.lateness(g.latenessMs()),
                    PeerTargets.latenessTarget(r.latenessMs(), reference.label()),
                    PeerTargets.verdictBeside(counts, PeerTargets.latenessMet(g.latenessMs(), r.latenessMs())));
            for (Runs peer : peers) {
                table.row(
                        "",
                        peer.label() + " lateness",
                        IssueTargets.lateness(peer.byStyle().get(style).latenessMs()),
                        "",
                        "");
            }
            table.row(
                    "",
                    "gateway received / pushed",
                    PeerTargets.received(g),
                    "all, once",
                    ReportTable.verdict(PeerTargets.complete(g)));
            arrivals.record(scenario + " gateway", g.pushed(), g.received(), g.missing(), g.unexpected());
            for (Runs peer : peers) {
                LoadDriver.Lateness p = peer.byStyle().get(style);
                table.row(
                        "",
                        peer.label() + " received / pushed",
                        PeerTargets.received(p),
                        "all, once, at the rate",
                        ReportTable.verdict(PeerTargets.keptUp(p, load.rate())));
                arrivals.record(scenario + " " + peer.label(), p.pushed(), p.received(), p.missing(), p.unexpected());
            }
            table.row("", "gateway steady push", PeerTargets.push(g, load.pushers()), load.rate() + "/s", "");
            for (Runs peer : peers) {
                table.row(
                        "",
                        peer.label() + " steady put",
                        PeerTargets.push(peer.byStyle().get(style), load.pushers()),
                        "",
                        "");
            }
            table.row(
                    "",
                    "consumers",
                    load.pullers() + " x gateway: " + style.gatewayCalls() + "; beanstalkd: " + style.beanstalkdCalls(),
                    "",
                    "");
            table.row("", "gateway CPU per delivered job", g.cpu().perJob(g.received()), "", "");
            for (Runs peer : peers) {
                LoadDriver.Lateness p = peer.byStyle().get(style);
                table.row("", peer.label() + " CPU per delivered job", p.cpu().perJob(p.received()), "", "");
            }
            table.row(
                    "",
                    "gateway + stores / " + reference.label(),
                    PeerTargets.ratio(
                            g.cpu().serversMicrosPerJob(g.received()), r.cpu().serversMicrosPerJob(r.received())),
                    "",
                    "");
            table.row("", "gateway CPU (cores)", g.cpu().cores(), "", "");
            table.row(
                    "",
                    "errors",
                    "gateway " + PeerTargets.errors(g) + "; "
                            + String.join(
                                    "; ",
                                    peers.stream()
                                            .map(p -> p.label() + " "
                                                    + PeerTargets.errors(
                                                            p.byStyle().get(style)))
                                            .toList()),
                    "0",
                    ReportTable.verdict(g.pushErrors() + g.pullErrors() + g.finishErrors() == 0));
            firstError("gateway", g.firstError());
            peers.forEach(p -> firstError(p.label(), p.byStyle().get(style).firstError()));
        }
        if (pending > 0) {
            String scenario = "15 beside beanstalkd, memory of " + ReportTable.count(pending) + " pending";
            double redis = gateway.bytesPerPending(pending);
            double peer = reference.bytesPerPending(pending);
            table.row(
                    scenario,
                    "Redis bytes per pending job (RSS growth)",
                    ReportTable.count(redis) + " B; " + gateway.memoryDetail(),
                    "<= " + reference.label() + "'s " + ReportTable.count(peer) + " B",
                    ReportTable.verdict(redis >= 0 && peer > 0 && redis <= peer));
            table.row(
                    "",
                    reference.label() + " bytes per pending job (RSS growth)",
                    ReportTable.count(peer) + " B; " + reference.memoryDetail(),
                    "",
                    "");
        }
    }

    private void firstError(String who, String error) {
        if (error != null) {
            notes.accept("first error in scenario 15 (" + who + "): " + error.replace('\n', ' '));
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
