package io.mykit.delay.bench;

import java.util.Arrays;

/**
 * What the bench runs against and how big each scenario is, from {@code -Dbench.*} system properties. The defaults
 * make the default bench take about six minutes on a 2-core machine. Gateway settings ({@code -Dmykit.delay.*},
 * e.g. {@code -Dmykit.delay.buckets=32}) reach the in-process gateway unchanged.
 */
record BenchSettings(
        String redisHost, int redisPort,
        String mysqlHost, int mysqlPort, String mysqlUser, String mysqlPassword, String database,
        String scenarios, int bodyBytes,
        int pushClients, int pushWarmupSeconds, int pushWindowSeconds, int pushWindows,
        int batchClients, int batchSize, int batchWarmupSeconds, int batchWindowSeconds, int batchWindows,
        int latePending, int lateRate, int lateSeconds, int latePushers, int latePullers, int latePullBatch,
        int lateMinDelayMs, int lateMaxDelayMs) {

    static BenchSettings fromSystemProperties() {
        BenchSettings s = new BenchSettings(
                text("bench.redis.host", "127.0.0.1"), number("bench.redis.port", 6379),
                text("bench.mysql.host", "127.0.0.1"), number("bench.mysql.port", 3306),
                text("bench.mysql.user", "root"), text("bench.mysql.password", ""),
                text("bench.database", "mykit_delay_bench"),
                text("bench.scenarios", "1,2,3"), number("bench.body-bytes", 100),
                number("bench.push.clients", 32), number("bench.push.warmup", 40),
                number("bench.push.window", 10), number("bench.push.windows", 3),
                number("bench.batch.clients", 4), number("bench.batch.size", 1000), number("bench.batch.warmup", 15),
                number("bench.batch.window", 8), number("bench.batch.windows", 3),
                number("bench.late.pending", 100_000), number("bench.late.rate", 800),
                number("bench.late.seconds", 30), number("bench.late.pushers", 32),
                number("bench.late.pullers", 8), number("bench.late.pull-batch", 100),
                number("bench.late.min-delay", 1000), number("bench.late.max-delay", 2000));
        s.validate();
        return s;
    }

    /**
     * Whether scenario {@code n} (1 single push, 2 batch push, 3 lateness, 4 restore, 5-7 brokers, 8 cluster) is to
     * run.
     */
    boolean runs(int n) {
        return Arrays.stream(scenarios.split(",")).map(String::trim).anyMatch(Integer.toString(n)::equals);
    }

    private void validate() {
        if (!database.matches("[A-Za-z0-9_]{1,64}")) {
            throw new IllegalArgumentException("bench.database must match [A-Za-z0-9_]{1,64}, was " + database);
        }
        if (pushClients < 1 || batchClients < 1 || latePushers < 1 || latePullers < 1 || lateRate < 1
                || latePullBatch < 1) {
            throw new IllegalArgumentException("bench client counts, bench.late.rate and .pull-batch must be >= 1");
        }
        if (pushWindows < 1 || batchWindows < 1 || pushWindowSeconds < 1 || batchWindowSeconds < 1 || lateSeconds < 1) {
            throw new IllegalArgumentException("bench windows and durations must be >= 1");
        }
        if (batchSize < 1 || lateMinDelayMs < 0 || lateMaxDelayMs < lateMinDelayMs) {
            throw new IllegalArgumentException("need bench.batch.size >= 1 and 0 <= bench.late.min-delay <= max-delay");
        }
    }

    private static String text(String key, String fallback) {
        return System.getProperty(key, fallback);
    }

    static int number(String key, int fallback) {
        String value = System.getProperty(key);
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
