package io.mykit.delay.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import redis.clients.jedis.Jedis;

/**
 * What one round trip costs on this machine, measured before any scenario runs: a Redis PING and a MariaDB commit of
 * one row, each from one client, one after another. Machines of the same kind differed 5x in a PING (redis-benchmark:
 * 23-130 us) and the gateway's figures moved with it, so the header prints both: figures of two runs compare only
 * beside these.
 */
final class MachineCalibration {
    static final int PINGS = 2_000;
    static final int COMMITS = 200;
    /** Unmeasured first: this JVM's client code is still interpreted at the start. */
    private static final int WARM_UP_CALLS = 200;

    private static final String TABLE = "bench_calibration";

    /** Round-trip times from one client, in microseconds. */
    record RoundTrips(Histogram redisPingMicros, Histogram mariaDbCommitMicros) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "Redis PING p50 / p99 %d / %d us (%,d), MariaDB one-row commit p50 / p99 "
                            + "%.1f / %.1f ms (%,d); one client each, before the scenarios",
                    redisPingMicros.percentile(50),
                    redisPingMicros.percentile(99),
                    redisPingMicros.count(),
                    mariaDbCommitMicros.percentile(50) / 1000.0,
                    mariaDbCommitMicros.percentile(99) / 1000.0,
                    mariaDbCommitMicros.count());
        }
    }

    private MachineCalibration() {}

    static RoundTrips measure(BenchSettings settings) throws SQLException {
        return new RoundTrips(redisPings(settings), mariaDbCommits(settings));
    }

    private static Histogram redisPings(BenchSettings settings) {
        Histogram micros = new Histogram();
        try (Jedis jedis = new Jedis(settings.redisHost(), settings.redisPort())) {
            for (int i = 0; i < WARM_UP_CALLS + PINGS; i++) {
                long start = System.nanoTime();
                jedis.ping();
                if (i >= WARM_UP_CALLS) {
                    micros.record((System.nanoTime() - start) / 1000);
                }
            }
        }
        return micros;
    }

    private static Histogram mariaDbCommits(BenchSettings settings) throws SQLException {
        Histogram micros = new Histogram();
        BenchGateway.resetDatabase(settings);
        try (Connection connection = BenchGateway.journal(settings);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + TABLE
                    + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, at BIGINT NOT NULL) ENGINE=InnoDB");
            try {
                connection.setAutoCommit(false);
                String sql = "INSERT INTO " + TABLE + " (at) VALUES (?)";
                try (PreparedStatement insert = connection.prepareStatement(sql)) {
                    for (int i = 0; i < WARM_UP_CALLS / 10 + COMMITS; i++) {
                        long start = System.nanoTime();
                        insert.setLong(1, System.currentTimeMillis());
                        insert.executeUpdate();
                        connection.commit();
                        if (i >= WARM_UP_CALLS / 10) {
                            micros.record((System.nanoTime() - start) / 1000);
                        }
                    }
                }
                connection.setAutoCommit(true);
            } finally {
                statement.execute("DROP TABLE " + TABLE);
            }
        }
        return micros;
    }
}
