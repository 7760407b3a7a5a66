package io.mykit.delay.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The header's round-trip line: PINGs in microseconds, commits in milliseconds, with their counts. */
class MachineCalibrationTest {

    @Test
    void describes_both_round_trips_with_their_percentiles_and_counts() {
        Histogram pings = new Histogram();
        for (int i = 1; i <= 100; i++) {
            pings.record(i * 10L);
        }
        Histogram commits = new Histogram();
        for (int i = 1; i <= 100; i++) {
            commits.record(i * 100L);
        }

        String line = new MachineCalibration.RoundTrips(pings, commits).describe();

        assertThat(line)
                .startsWith("Redis PING p50 / p99 " + pings.percentile(50) + " / " + pings.percentile(99)
                        + " us (100), MariaDB one-row commit p50 / p99 ");
        assertThat(line)
                .contains(String.format(
                        java.util.Locale.ROOT,
                        "%.1f / %.1f ms (100)",
                        commits.percentile(50) / 1000.0,
                        commits.percentile(99) / 1000.0));
    }
}
