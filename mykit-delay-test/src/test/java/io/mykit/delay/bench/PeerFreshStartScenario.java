package io.mykit.delay.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Scenario 18: a fresh start beside beanstalkd. For each consumer style, a gateway JVM launched with its default
 * settings on external stores ({@link PeerGateway}: a private redis-server, the bench's MariaDB) and, the moment it
 * answers, {@link PeerLoad}'s producers on their open-loop schedule with its consumers, for the first minute; then the
 * same for a freshly launched beanstalkd in each fsync mode. Printed: launch to first answer (target 15 s), the
 * producers' send lag (actual send - planned send; target: max at most 10x beanstalkd's, beanstalkd's taken as at least
 * 1 ms), lateness in that minute beside beanstalkd's p99 + 5 / p99.9 + 10 ms, and CPU per delivered job both during the
 * load and from launch on (the cold cost, start-up included).
 *
 * <p>The load driver's own code is warmed first, unmeasured, against an in-memory HTTP server ({@link FloorServer}) and
 * a throwaway beanstalkd, as a user's long-running producers are. Sizes: {@code -Dbench.peer.fresh.seconds} (60; 60;
 * 4), {@code .driver-warmup} (seconds: 10; 10; 1).
 */
final class PeerFreshStartScenario {
    private static final String TOPIC = "bench-peer-fresh";

    private final BenchSettings settings;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final PeerLoad load;
    private final int seconds;
    private final int driverWarmup;

    /** One fresh server's minute: the load's outcome, launch to first answer, CPU from launch. */
    private record Run(
            String label, LoadDriver.Lateness load, long firstAnswerMs, long servingMs, CpuMeter.Usage sinceLaunch) {}

    PeerFreshStartScenario(BenchSettings settings, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.load = PeerLoad.from(settings);
        this.seconds = settings.size("bench.peer.fresh.seconds", 60, 60, 4);
        this.driverWarmup = settings.size("bench.peer.fresh.driver-warmup", 10, 10, 1);
        if (seconds < 1 || driverWarmup < 0) {
            throw new IllegalArgumentException("need bench.peer.fresh.seconds >= 1 and .driver-warmup >= 0");
        }
    }

    void run() throws Exception {
        progress(String.format(
                Locale.ROOT,
                "18 fresh start beside beanstalkd: launch, then at once %d jobs/s from %d"
                        + " producers for %d s, %d consumers %s",
                load.rate(),
                load.pushers(),
                seconds,
                load.pullers(),
                load.styles().stream().map(ConsumerStyle::name).toList()));
        Path logDir = Files.createTempDirectory("mykit-bench-peer-");
        for (ConsumerStyle style : load.styles()) {
            warmDrivers(style);
            Run gateway = gateway(style, logDir);
            List<Run> peers = new ArrayList<>();
            for (Beanstalkd.Mode mode : load.modes()) {
                peers.add(beanstalkd(style, mode));
            }
            report(style, gateway, peers);
        }
        notes.accept("scenario 18: the gateway JVMs' logs are in " + logDir);
    }

    private void warmDrivers(ConsumerStyle style) throws Exception {
        if (driverWarmup == 0) {
            return;
        }
        CpuMeter none = CpuMeter.ofServers(Map.of());
        try (FloorServer floor = FloorServer.start()) {
            new LoadDriver(floor.baseUrl(), settings.bodyBytes(), none)
                    .pollTimeout(style.timeoutMs())
                    .steadyDelivery(
                            TOPIC + "-driver",
                            load.rate(),
                            driverWarmup,
                            load.pushers(),
                            load.pullers(),
                            style.batch(),
                            load.minDelayMs(),
                            load.maxDelayMs(),
                            PeerLoad.DELIVERY_GRACE_MS);
        }
        try (Beanstalkd throwaway = Beanstalkd.start(settings, Beanstalkd.Mode.NEVER)) {
            new BeanstalkDriver(throwaway, settings.bodyBytes(), none)
                    .steadyDelivery(
                            TOPIC + "-driver",
                            load.rate(),
                            driverWarmup,
                            load.pushers(),
                            load.pullers(),
                            style.batch(),
                            load.minDelayMs(),
                            load.maxDelayMs(),
                            style.timeoutMs(),
                            PeerLoad.DELIVERY_GRACE_MS);
        }
    }

    private Run gateway(ConsumerStyle style, Path logDir) throws Exception {
        progress("18: a fresh gateway JVM, " + style.name() + " consumers");
        try (PeerGateway server = PeerGateway.start(settings, logDir, "")) {
            LoadDriver.Lateness l = new LoadDriver(server.baseUrl(), settings.bodyBytes(), server.cpu())
                    .pollTimeout(style.timeoutMs())
                    .steadyDelivery(
                            TOPIC,
                            load.rate(),
                            seconds,
                            load.pushers(),
                            load.pullers(),
                            style.batch(),
                            load.minDelayMs(),
                            load.maxDelayMs(),
                            PeerLoad.DELIVERY_GRACE_MS);
            CpuMeter.Usage sinceLaunch =
                    CpuMeter.between(server.beforeLaunch(), server.cpu().sample());
            return new Run(
                    "gateway", l, server.launchToFirstAnswerMs(), server.jvm().startToServingMs(), sinceLaunch);
        }
    }

    private Run beanstalkd(ConsumerStyle style, Beanstalkd.Mode mode) throws Exception {
        progress("18: a fresh " + mode.label() + ", " + style.name() + " consumers");
        // no process yet: the window from launch counts all of its CPU
        CpuMeter.Sample beforeLaunch = CpuMeter.ofServers(Map.of()).sample();
        try (Beanstalkd server = Beanstalkd.start(settings, mode)) {
            CpuMeter meter = CpuMeter.ofServers(Map.of("beanstalkd", server.handle()));
            LoadDriver.Lateness l = new BeanstalkDriver(server, settings.bodyBytes(), meter)
                    .steadyDelivery(
                            TOPIC,
                            load.rate(),
                            seconds,
                            load.pushers(),
                            load.pullers(),
                            style.batch(),
                            load.minDelayMs(),
                            load.maxDelayMs(),
                            style.timeoutMs(),
                            PeerLoad.DELIVERY_GRACE_MS);
            CpuMeter.Usage sinceLaunch = CpuMeter.between(beforeLaunch, meter.sample());
            return new Run(
                    mode.label(), l, server.launchToFirstAnswerMs(), server.launchToFirstAnswerMs(), sinceLaunch);
        }
    }

    private void report(ConsumerStyle style, Run gateway, List<Run> peers) {
        String scenario = String.format(
                Locale.ROOT, "18 fresh start beside beanstalkd, %d/s for %d s, %s", load.rate(), seconds, style.name());
        Run reference = peers.get(0);
        boolean counts = PeerTargets.keptUp(reference.load(), load.rate());
        table.row(
                scenario,
                "gateway launch to first answer",
                String.format(
                        Locale.ROOT,
                        "%.1f s (serving after %.1f s)",
                        gateway.firstAnswerMs() / 1000.0,
                        gateway.servingMs() / 1000.0),
                "<= " + PeerTargets.LAUNCH_TO_SERVING_MS / 1000 + " s",
                ReportTable.verdict(gateway.firstAnswerMs() <= PeerTargets.LAUNCH_TO_SERVING_MS));
        peers.forEach(p -> table.row(
                "",
                p.label() + " launch to first answer",
                String.format(Locale.ROOT, "%.3f s", p.firstAnswerMs() / 1000.0),
                "",
                ""));
        Histogram lag = gateway.load().sendLagMs();
        long peerLag = Math.max(1, reference.load().sendLagMs().max());
        table.row(
                "",
                "gateway send lag p50 / p99 / p99.9 / max",
                PeerTargets.sendLag(lag),
                String.format(
                        Locale.ROOT,
                        "max <= %.0fx %s's: <= %d ms",
                        PeerTargets.SEND_LAG_RATIO,
                        reference.label(),
                        Math.round(PeerTargets.SEND_LAG_RATIO * peerLag)),
                PeerTargets.verdictBeside(
                        counts, lag.count() > 0 && lag.max() <= PeerTargets.SEND_LAG_RATIO * peerLag));
        peers.forEach(p -> table.row(
                "", p.label() + " send lag", PeerTargets.sendLag(p.load().sendLagMs()), "", ""));
        table.row(
                "",
                "gateway lateness p50 / p99 / p99.9 / max",
                IssueTargets.lateness(gateway.load().latenessMs()),
                PeerTargets.latenessTarget(reference.load().latenessMs(), reference.label()),
                PeerTargets.verdictBeside(
                        counts,
                        PeerTargets.latenessMet(
                                gateway.load().latenessMs(), reference.load().latenessMs())));
        peers.forEach(p -> table.row(
                "", p.label() + " lateness", IssueTargets.lateness(p.load().latenessMs()), "", ""));
        LoadDriver.Lateness g = gateway.load();
        table.row(
                "",
                "gateway received / pushed",
                PeerTargets.received(g),
                "all, once",
                ReportTable.verdict(PeerTargets.complete(g)));
        arrivals.record(scenario + " gateway", g.pushed(), g.received(), g.missing(), g.unexpected());
        for (Run peer : peers) {
            LoadDriver.Lateness p = peer.load();
            table.row(
                    "",
                    peer.label() + " received / pushed",
                    PeerTargets.received(p),
                    "all, once, at the rate",
                    ReportTable.verdict(PeerTargets.keptUp(p, load.rate())));
            arrivals.record(scenario + " " + peer.label(), p.pushed(), p.received(), p.missing(), p.unexpected());
        }
        table.row("", "gateway steady push", PeerTargets.push(g, load.pushers()), load.rate() + "/s", "");
        table.row("", "worst seconds of the gateway's schedule", g.pushSeconds().worst(3), "", "");
        peers.forEach(
                p -> table.row("", p.label() + " steady put", PeerTargets.push(p.load(), load.pushers()), "", ""));
        table.row(
                "",
                "consumers",
                load.pullers() + " x gateway: " + style.gatewayCalls() + "; beanstalkd: " + style.beanstalkdCalls(),
                "",
                "");
        table.row("", "gateway CPU per delivered job, during the load", g.cpu().perJob(g.received()), "", "");
        table.row("", "  from launch (cold)", gateway.sinceLaunch().perJob(g.received()), "", "");
        for (Run peer : peers) {
            LoadDriver.Lateness p = peer.load();
            table.row(
                    "",
                    peer.label() + " CPU per delivered job, during the load",
                    p.cpu().perJob(p.received()),
                    "",
                    "");
            table.row("", "  from launch (cold)", peer.sinceLaunch().perJob(p.received()), "", "");
        }
        table.row(
                "",
                "errors",
                "gateway " + PeerTargets.errors(g) + "; " + reference.label() + " "
                        + PeerTargets.errors(reference.load()),
                "0",
                ReportTable.verdict(g.pushErrors() + g.pullErrors() + g.finishErrors() == 0));
        firstError("gateway", g.firstError());
        firstError(reference.label(), reference.load().firstError());
    }

    private void firstError(String who, String error) {
        if (error != null) {
            notes.accept("first error in scenario 18 (" + who + "): " + error.replace('\n', ' '));
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
