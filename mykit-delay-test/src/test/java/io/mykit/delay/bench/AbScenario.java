package io.mykit.delay.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * Scenario 19, the A/B mode: an older runnable jar (A, {@code -Dbench.ab.jar}; tools/bench/build-jar-at.sh builds one
 * from any commit) and the current one (B, {@code -Dbench.ab.current-jar}, by default
 * mykit-delay-core/target/mykit-delay.jar) in alternating rounds, A B A B..., each round of each consumer style a fresh
 * gateway JVM with its default settings on a fresh private Redis and the truncated journal database
 * ({@link PeerGateway}). A round: launch; at once {@link PeerLoad}'s steady load until 60 s after launch (cold: CPU
 * from launch, start-up included, per job delivered meanwhile); the same load unmeasured for the warm-up; the same load
 * measured (warm). Printed: every round's CPU per delivered job per server (gateway, Redis, MariaDB, from /proc), each
 * side's median, and B / A of the medians of gateway + Redis + MariaDB beside the 1/3.
 *
 * <p>Sizes: {@code -Dbench.ab.rounds} (3; quick 1), {@code .cold-seconds} (60; quick 5), {@code .warmup} (60; quick 0),
 * {@code .seconds} (60; quick 3), {@code .styles} (batch,single; add stream when both jars have it); rates and clients
 * are {@link PeerLoad}'s.
 */
final class AbScenario {
    private static final String TOPIC = "bench-ab";
    private static final List<String> SERVERS = List.of("gateway", "redis", "mariadb");

    private final BenchSettings settings;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final PeerLoad load;
    private final List<ConsumerStyle> styles;
    private final int rounds;
    private final int coldSeconds;
    private final int warmupSeconds;
    private final int seconds;
    private final List<Side> sides;

    /** One of the two jars. */
    record Side(String name, Path jar) {}

    /** One round of one side and style: its cold and warm minutes. */
    private record Round(
            int number,
            Side side,
            ConsumerStyle style,
            long firstAnswerMs,
            LoadDriver.Lateness cold,
            CpuMeter.Usage coldCpu,
            LoadDriver.Lateness warm) {
        double warmMicros(String server) {
            return server == null
                    ? warm.cpu().serversMicrosPerJob(warm.received())
                    : warm.cpu().serverMicrosPerJob(server, warm.received());
        }

        double coldMicros(String server) {
            return server == null
                    ? coldCpu.serversMicrosPerJob(cold.received())
                    : coldCpu.serverMicrosPerJob(server, cold.received());
        }
    }

    AbScenario(BenchSettings settings, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.load = PeerLoad.from(settings);
        this.styles = ConsumerStyle.from(settings, "bench.ab.styles", "batch,single");
        this.rounds = settings.size("bench.ab.rounds", 3, 3, 1);
        this.coldSeconds = settings.size("bench.ab.cold-seconds", 60, 60, 5);
        this.warmupSeconds = settings.size("bench.ab.warmup", 60, 60, 0);
        this.seconds = settings.size("bench.ab.seconds", 60, 60, 3);
        this.sides = sides(settings);
        if (rounds < 1 || coldSeconds < 1 || warmupSeconds < 0 || seconds < 1) {
            throw new IllegalArgumentException("need bench.ab.rounds, .cold-seconds, .seconds >= 1, .warmup >= 0");
        }
    }

    /** A = {@code bench.ab.jar}, B = {@code bench.ab.current-jar}; both must be files. */
    static List<Side> sides(BenchSettings settings) {
        String older = settings.text("bench.ab.jar", "");
        if (older.isBlank()) {
            throw new IllegalArgumentException("scenario 19 (A/B) needs -Dbench.ab.jar=<an older runnable jar>;"
                    + " tools/bench/build-jar-at.sh <commit> <out.jar> builds one");
        }
        Path a = Path.of(older).toAbsolutePath();
        Path b = Path.of(settings.text("bench.ab.current-jar", currentJar().toString()))
                .toAbsolutePath();
        for (Path jar : List.of(a, b)) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("no jar at " + jar + " (B defaults to the current build's"
                        + " mykit-delay-core/target/mykit-delay.jar: mvn -B -q -DskipTests package)");
            }
        }
        return List.of(new Side("A", a), new Side("B", b));
    }

    /** mykit-delay-core/target/mykit-delay.jar of the repository this runs in (found upwards from user.dir). */
    private static Path currentJar() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("mykit-delay-core"))) {
            dir = dir.getParent();
        }
        Path root = dir == null ? Path.of(System.getProperty("user.dir")) : dir;
        return root.resolve("mykit-delay-core").resolve("target").resolve("mykit-delay.jar");
    }

    void run() throws Exception {
        progress(String.format(
                Locale.ROOT,
                "19 A/B: A = %s, B = %s; %d rounds A B, each a fresh gateway JVM per"
                        + " style %s: %d jobs/s until %d s after launch (cold), %d s warm-up, %d s measured (warm)",
                sides.get(0).jar(),
                sides.get(1).jar(),
                rounds,
                styles.stream().map(ConsumerStyle::name).toList(),
                load.rate(),
                coldSeconds,
                warmupSeconds,
                seconds));
        Path logDir = Files.createTempDirectory("mykit-bench-ab-");
        List<Round> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (Side side : sides) {
                for (ConsumerStyle style : styles) {
                    results.add(round(round, side, style, logDir));
                }
            }
        }
        for (ConsumerStyle style : styles) {
            report(style, results.stream().filter(r -> r.style().equals(style)).toList());
        }
        notes.accept("scenario 19: cold = CPU from the gateway's launch (Redis and MariaDB from just before it) to the"
                + " end of the load that ran from its first answer until " + coldSeconds + " s after launch, per job"
                + " delivered by that load; warm = after " + warmupSeconds + " s more of the load, " + seconds
                + " s measured. The gateway JVMs' logs are in " + logDir);
    }

    private Round round(int number, Side side, ConsumerStyle style, Path logDir) throws Exception {
        progress(String.format(
                Locale.ROOT, "19 A/B: round %d of %d, %s, %s consumers", number, rounds, side.name(), style.name()));
        try (PeerGateway gateway =
                PeerGateway.start(settings, logDir, side.jar().toString())) {
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), gateway.cpu())
                    .pollTimeout(style.timeoutMs());
            int coldLoad = (int) Math.max(1, coldSeconds - Math.ceil(gateway.launchToFirstAnswerMs() / 1000.0));
            LoadDriver.Lateness cold = steady(driver, TOPIC + "-cold", coldLoad, style);
            CpuMeter.Usage coldCpu =
                    CpuMeter.between(gateway.beforeLaunch(), gateway.cpu().sample());
            if (warmupSeconds > 0) {
                steady(driver, TOPIC + "-warmup", warmupSeconds, style);
            }
            LoadDriver.Lateness warm = steady(driver, TOPIC, seconds, style);
            return new Round(number, side, style, gateway.launchToFirstAnswerMs(), cold, coldCpu, warm);
        }
    }

    private LoadDriver.Lateness steady(LoadDriver driver, String topic, int runSeconds, ConsumerStyle style)
            throws InterruptedException {
        return driver.steadyDelivery(
                topic,
                load.rate(),
                runSeconds,
                load.pushers(),
                load.pullers(),
                style.batch(),
                load.minDelayMs(),
                load.maxDelayMs(),
                PeerLoad.DELIVERY_GRACE_MS);
    }

    private void report(ConsumerStyle style, List<Round> results) {
        String scenario = String.format(Locale.ROOT, "19 A/B, %d/s, %s", load.rate(), style.name());
        table.row(
                scenario,
                "A / B",
                "A = " + sides.get(0).jar() + "; B = " + sides.get(1).jar(),
                "",
                "");
        for (Round r : results) {
            table.row(
                    "",
                    "round " + r.number() + " " + r.side().name() + " warm, CPU per delivered job",
                    r.warm().cpu().perJob(r.warm().received()),
                    "",
                    "");
            table.row(
                    "",
                    "  cold (from launch)",
                    r.coldCpu().perJob(r.cold().received())
                            + String.format(
                                    Locale.ROOT, "; first answer %.1f s after launch", r.firstAnswerMs() / 1000.0),
                    "",
                    "");
            boolean complete = PeerTargets.complete(r.cold()) && PeerTargets.complete(r.warm());
            table.row(
                    "",
                    "  received / pushed, warm",
                    PeerTargets.received(r.warm()) + "; lateness p99 "
                            + r.warm().latenessMs().percentile(99) + " ms",
                    "all, once",
                    ReportTable.verdict(complete));
            arrivals.record(
                    scenario + " round " + r.number() + " " + r.side().name() + " cold",
                    r.cold().pushed(),
                    r.cold().received(),
                    r.cold().missing(),
                    r.cold().unexpected());
            arrivals.record(
                    scenario + " round " + r.number() + " " + r.side().name() + " warm",
                    r.warm().pushed(),
                    r.warm().received(),
                    r.warm().missing(),
                    r.warm().unexpected());
        }
        List<Round> a = results.stream().filter(r -> r.side() == sides.get(0)).toList();
        List<Round> b = results.stream().filter(r -> r.side() == sides.get(1)).toList();
        boolean complete =
                results.stream().allMatch(r -> PeerTargets.complete(r.cold()) && PeerTargets.complete(r.warm()));
        for (String window : List.of("warm", "cold")) {
            boolean warm = window.equals("warm");
            table.row("", "median A, " + window, medians(a, warm), "", "");
            table.row("", "median B, " + window, medians(b, warm), "", "");
            double ratio = median(b, r -> warm ? r.warmMicros(null) : r.coldMicros(null))
                    / median(a, r -> warm ? r.warmMicros(null) : r.coldMicros(null));
            table.row(
                    "",
                    "B / A, gateway + redis + mariadb, " + window,
                    String.format(
                            Locale.ROOT,
                            "%.2f (%s)",
                            ratio,
                            String.join(
                                    ", ",
                                    SERVERS.stream()
                                            .map(server -> server + " "
                                                    + String.format(
                                                            Locale.ROOT,
                                                            "%.2f",
                                                            median(
                                                                            b,
                                                                            r -> warm
                                                                                    ? r.warmMicros(server)
                                                                                    : r.coldMicros(server))
                                                                    / median(
                                                                            a,
                                                                            r -> warm
                                                                                    ? r.warmMicros(server)
                                                                                    : r.coldMicros(server))))
                                            .toList())),
                    String.format(Locale.ROOT, "<= %.2f", PeerTargets.AB_CPU_RATIO),
                    ReportTable.verdict(complete && ratio <= PeerTargets.AB_CPU_RATIO));
        }
    }

    /** "gateway 120 us + redis 30 us + mariadb 60 us; the rounds' totals' median 210 us (3 rounds)". */
    private static String medians(List<Round> side, boolean warm) {
        List<String> parts = new ArrayList<>();
        for (String server : SERVERS) {
            parts.add(String.format(
                    Locale.ROOT,
                    "%s %.0f us",
                    server,
                    median(side, r -> warm ? r.warmMicros(server) : r.coldMicros(server))));
        }
        return String.join(" + ", parts)
                + String.format(
                        Locale.ROOT,
                        "; the rounds' totals' median %.0f us (%d rounds)",
                        median(side, r -> warm ? r.warmMicros(null) : r.coldMicros(null)),
                        side.size());
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> figure) {
        return Histogram.median(
                rounds.stream().map(r -> figure.applyAsDouble(r)).toList());
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
