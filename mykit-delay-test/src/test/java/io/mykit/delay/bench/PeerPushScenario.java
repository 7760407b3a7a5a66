package io.mykit.delay.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Scenario 17: durable single pushes beside beanstalkd. Scenario 1's clients ({@code bench.push.clients}, 16), each
 * sending one far-future job and waiting for the answer before the next, against a fresh gateway JVM
 * ({@link PeerGateway}: a push is answered after its journal commit) and then against a fresh beanstalkd in each fsync
 * mode asked (a put is answered after its binlog write, and with {@code always} after its fsync). Warm-up and windows
 * are scenario 1's ({@code bench.push.warmup}, {@code .window}, {@code .windows}); the rate is the median window's.
 */
final class PeerPushScenario {
    private final BenchSettings settings;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final PeerLoad load;

    PeerPushScenario(BenchSettings settings, ReportTable table, Consumer<String> notes) {
        this.settings = settings;
        this.table = table;
        this.notes = notes;
        this.load = PeerLoad.from(settings);
    }

    void run() throws Exception {
        BenchSettings s = settings;
        progress(String.format(
                Locale.ROOT,
                "17 durable single push beside beanstalkd: %d clients, %d s warm-up, %d x %d s each",
                s.pushClients(),
                s.pushWarmupSeconds(),
                s.pushWindows(),
                s.pushWindowSeconds()));
        Path logDir = Files.createTempDirectory("mykit-bench-peer-");
        LoadDriver.Throughput gateway;
        try (PeerGateway server = PeerGateway.start(s, logDir, "")) {
            gateway = new LoadDriver(server.baseUrl(), s.bodyBytes(), server.cpu())
                    .singlePush(s.pushClients(), s.pushWarmupSeconds(), s.pushWindowSeconds(), s.pushWindows());
        }
        List<LoadDriver.Throughput> peers = new ArrayList<>();
        for (Beanstalkd.Mode mode : load.modes()) {
            progress("17: " + mode.label());
            try (Beanstalkd server = Beanstalkd.start(s, mode)) {
                peers.add(new BeanstalkDriver(
                                server, s.bodyBytes(), CpuMeter.ofServers(Map.of("beanstalkd", server.handle())))
                        .singlePush(s.pushClients(), s.pushWarmupSeconds(), s.pushWindowSeconds(), s.pushWindows()));
            }
        }
        report(gateway, peers);
        notes.accept("scenario 17: the gateway JVM's log is in " + logDir);
    }

    private void report(LoadDriver.Throughput gateway, List<LoadDriver.Throughput> peers) {
        BenchSettings s = settings;
        String scenario = "17 durable single push beside beanstalkd, " + s.pushClients() + " clients";
        LoadDriver.Throughput reference = peers.get(0);
        String label = load.reference().label();
        boolean counts = reference.errors() == 0 && reference.median() > 0;
        table.row(
                scenario,
                "gateway pushes/s",
                describe(gateway),
                String.format(
                        Locale.ROOT,
                        ">= %.2fx %s: >= %s/s",
                        PeerTargets.PUSH_RATIO,
                        label,
                        ReportTable.count(PeerTargets.PUSH_RATIO * reference.median())),
                PeerTargets.verdictBeside(
                        counts,
                        gateway.errors() == 0 && gateway.median() >= PeerTargets.PUSH_RATIO * reference.median()));
        for (int m = 0; m < peers.size(); m++) {
            table.row("", load.modes().get(m).label() + " puts/s", describe(peers.get(m)), "", "");
        }
        table.row("", "gateway / " + label, PeerTargets.ratio(gateway.median(), reference.median()), "", "");
        table.row("", "gateway CPU per push", gateway.cpu().perJob(gateway.jobs()), "", "");
        for (int m = 0; m < peers.size(); m++) {
            LoadDriver.Throughput p = peers.get(m);
            table.row("", load.modes().get(m).label() + " CPU per put", p.cpu().perJob(p.jobs()), "", "");
        }
        table.row(
                "",
                "errors",
                String.format(
                        "gateway %d of %s calls; %s %d of %s",
                        gateway.errors(),
                        ReportTable.count(gateway.calls()),
                        label,
                        reference.errors(),
                        ReportTable.count(reference.calls())),
                "0",
                ReportTable.verdict(gateway.errors() == 0));
        firstError("gateway", gateway.firstError());
        firstError(label, reference.firstError());
    }

    /** "8,123/s (median of 3 x 10 s; 7,900-8,300); latency p50 / p99 / max 1.2 / 4.5 / 30.1 ms". */
    private String describe(LoadDriver.Throughput t) {
        Histogram latency = t.latencyMicros();
        return String.format(
                Locale.ROOT,
                "%s/s (median of %d x %d s; %s-%s); latency p50 / p99 / max %s / %s / %s ms",
                ReportTable.count(t.median()),
                t.jobsPerSecond().size(),
                t.windowSeconds(),
                ReportTable.count(t.min()),
                ReportTable.count(t.max()),
                ReportTable.micros(latency.percentile(50)),
                ReportTable.micros(latency.percentile(99)),
                ReportTable.micros(latency.max()));
    }

    private void firstError(String who, String error) {
        if (error != null) {
            notes.accept("first error in scenario 17 (" + who + "): " + error.replace('\n', ' '));
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
