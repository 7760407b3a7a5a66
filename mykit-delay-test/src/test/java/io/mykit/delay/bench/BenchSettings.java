package io.mykit.delay.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What the bench runs against and how big each scenario is, from {@code -Dbench.*} system properties. The defaults make
 * the default bench take about six minutes on a 2-core machine. Gateway settings ({@code -Dmykit.delay.*}, e.g.
 * {@code -Dmykit.delay.buckets=32}) reach the in-process gateway unchanged.
 *
 * <p>Three size modes pick the defaults of every size (a {@code -Dbench.*} property given still wins):
 *
 * <pre>
 *  default   -Dbench.scenarios=1,2,3 (or a list)   today's sizes
 *  full      -Dbench.scenarios=all                 every scenario at the sizes (1M pending, 1M drains)
 *  quick     -Dbench.quick=true                    every scenario shrunk; the default list runs in under a minute
 * </pre>
 *
 * {@code -Dbench.ab.jar=<older jar>} alone runs the A/B mode (scenario 19); "all" includes it only then. The client
 * counts follow the outside harness: 16 single pushers, 4 producers and 4 single-pull consumers at a steady
 * rate.
 */
record BenchSettings(
        Mode mode,
        Properties source,
        String redisHost,
        int redisPort,
        String mysqlHost,
        int mysqlPort,
        String mysqlUser,
        String mysqlPassword,
        String database,
        String scenarios,
        int bodyBytes,
        int pushClients,
        int pushWarmupSeconds,
        int pushWindowSeconds,
        int pushWindows,
        int batchClients,
        int batchSize,
        int batchWarmupSeconds,
        int batchWindowSeconds,
        int batchWindows,
        int latePending,
        int lateRate,
        int lateSeconds,
        int latePushers,
        int latePullers,
        int latePullBatch,
        int lateMinDelayMs,
        int lateMaxDelayMs,
        int pollTimeoutMs) {

    /** The highest scenario number. */
    static final int LAST_SCENARIO = 19;
    /** The A/B mode's scenario: it runs only with an older jar to compare ({@code bench.ab.jar}). */
    static final int AB_SCENARIO = 19;
    /** The scenarios the quick mode runs unless told: the ones that together fit in a minute. */
    static final String QUICK_SCENARIOS = "1,2,3,7,10,11,12";

    /** Which defaults the sizes take. */
    enum Mode {
        DEFAULT,
        FULL,
        QUICK
    }

    static BenchSettings fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    /** The settings {@code properties} ({@code bench.*} keys) ask for; a test hands its own instead of -D options. */
    static BenchSettings fromProperties(Properties properties) {
        boolean quick = Boolean.parseBoolean(properties.getProperty("bench.quick", "false"));
        boolean abJar = !properties.getProperty("bench.ab.jar", "").isBlank();
        // an older jar given alone asks for the A/B mode
        String unnamed = abJar ? Integer.toString(AB_SCENARIO) : quick ? QUICK_SCENARIOS : "1,2,3";
        String named = properties.getProperty("bench.scenarios", unnamed).trim();
        Mode mode = quick ? Mode.QUICK : "all".equals(named) ? Mode.FULL : Mode.DEFAULT;
        String scenarios = "all".equals(named)
                ? IntStream.rangeClosed(1, LAST_SCENARIO)
                        .filter(n -> n != AB_SCENARIO || abJar)
                        .mapToObj(Integer::toString)
                        .collect(Collectors.joining(","))
                : named;
        Sizer z = new Sizer(mode, properties);
        BenchSettings s = new BenchSettings(
                mode,
                properties,
                z.text("bench.redis.host", "127.0.0.1"),
                z.number("bench.redis.port", 6379),
                z.text("bench.mysql.host", "127.0.0.1"),
                z.number("bench.mysql.port", 3306),
                z.text("bench.mysql.user", "root"),
                z.text("bench.mysql.password", ""),
                z.text("bench.database", "mykit_delay_bench"),
                scenarios,
                z.number("bench.body-bytes", 100),
                z.number("bench.push.clients", 16),
                z.size("bench.push.warmup", 40, 40, 1),
                z.size("bench.push.window", 10, 10, 1),
                z.size("bench.push.windows", 3, 3, 2),
                z.size("bench.batch.clients", 4, 4, 2),
                z.number("bench.batch.size", 1000),
                z.size("bench.batch.warmup", 15, 15, 1),
                z.size("bench.batch.window", 8, 8, 1),
                z.size("bench.batch.windows", 3, 3, 2),
                z.size("bench.late.pending", 100_000, 1_000_000, 2_000),
                z.size("bench.late.rate", 1000, 1000, 200),
                z.size("bench.late.seconds", 30, 60, 3),
                z.number("bench.late.pushers", 4),
                z.number("bench.late.pullers", 4),
                z.number("bench.late.pull-batch", 1),
                z.size("bench.late.min-delay", 1000, 1000, 200),
                z.size("bench.late.max-delay", 2000, 2000, 500),
                z.size("bench.poll-timeout", 5000, 5000, 1000));
        s.validate();
        return s;
    }

    /** Whether scenario {@code n} (see {@link Bench} for the list) is to run. */
    boolean runs(int n) {
        return Arrays.stream(scenarios.split(",")).map(String::trim).anyMatch(Integer.toString(n)::equals);
    }

    boolean quick() {
        return mode == Mode.QUICK;
    }

    /** A size that has one default in every mode, unless {@code key} is given. */
    int number(String key, int fallback) {
        return new Sizer(mode, source).number(key, fallback);
    }

    /**
     * A size whose default depends on the mode ({@code normal}, {@code full}, {@code quick}), unless {@code key} is
     * given.
     */
    int size(String key, int normal, int full, int quick) {
        return new Sizer(mode, source).size(key, normal, full, quick);
    }

    /** A text setting, {@code fallback} unless {@code key} is given. */
    String text(String key, String fallback) {
        return new Sizer(mode, source).text(key, fallback);
    }

    /** The same settings against another Redis (a private one, scenario 11). */
    BenchSettings withRedis(String host, int port) {
        return new BenchSettings(
                mode,
                source,
                host,
                port,
                mysqlHost,
                mysqlPort,
                mysqlUser,
                mysqlPassword,
                database,
                scenarios,
                bodyBytes,
                pushClients,
                pushWarmupSeconds,
                pushWindowSeconds,
                pushWindows,
                batchClients,
                batchSize,
                batchWarmupSeconds,
                batchWindowSeconds,
                batchWindows,
                latePending,
                lateRate,
                lateSeconds,
                latePushers,
                latePullers,
                latePullBatch,
                lateMinDelayMs,
                lateMaxDelayMs,
                pollTimeoutMs);
    }

    private void validate() {
        if (!database.matches("[A-Za-z0-9_]{1,64}")) {
            throw new IllegalArgumentException("bench.database must match [A-Za-z0-9_]{1,64}, was " + database);
        }
        List<String> unknown = Arrays.stream(scenarios.split(","))
                .map(String::trim)
                .filter(n -> !n.matches("\\d+") || Integer.parseInt(n) < 1 || Integer.parseInt(n) > LAST_SCENARIO)
                .toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "bench.scenarios takes numbers 1-" + LAST_SCENARIO + " or all, not " + unknown);
        }
        if (runs(AB_SCENARIO)) {
            AbScenario.sides(this);
        }
        if (pushClients < 1
                || batchClients < 1
                || latePushers < 1
                || latePullers < 1
                || lateRate < 1
                || latePullBatch < 0) {
            throw new IllegalArgumentException(
                    "bench client counts and bench.late.rate must be >= 1, .pull-batch >= 0 (0: streams)");
        }
        if (pushWindows < 1 || batchWindows < 1 || pushWindowSeconds < 1 || batchWindowSeconds < 1 || lateSeconds < 1) {
            throw new IllegalArgumentException("bench windows and durations must be >= 1");
        }
        if (batchSize < 1 || lateMinDelayMs < 0 || lateMaxDelayMs < lateMinDelayMs) {
            throw new IllegalArgumentException("need bench.batch.size >= 1 and 0 <= bench.late.min-delay <= max-delay");
        }
        if (pollTimeoutMs < 100) {
            throw new IllegalArgumentException("bench.poll-timeout must be >= 100 ms");
        }
    }

    /** Reads sizes from one set of properties, picking each default by the mode. */
    private record Sizer(Mode mode, Properties source) {
        String text(String key, String fallback) {
            return source.getProperty(key, fallback);
        }

        int size(String key, int normal, int full, int quick) {
            return number(
                    key,
                    switch (mode) {
                        case DEFAULT -> normal;
                        case FULL -> full;
                        case QUICK -> quick;
                    });
        }

        int number(String key, int fallback) {
            String value = source.getProperty(key);
            if (value == null || value.isBlank()) {
                return fallback;
            }
            try {
                return Integer.parseInt(value.trim().replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be an integer, was " + value, e);
            }
        }
    }
}
