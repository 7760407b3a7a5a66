package io.mykit.delay.bench;

import java.util.Locale;

/**
 * Runs a scenario's own load, unmeasured, in rounds until the JIT has settled. A fresh JVM compiles the hot paths of
 * Tomcat, Spring, Jackson, Jedis and the JDBC driver for minutes under load; on 2 cores that took 0.4-0.5 cores through
 * a 20 s warm-up and the lateness it caused (p99 44-61 ms) disappeared once it had settled (p99 18 ms after 90 s). A
 * gateway that has been running for a while does not pay it, so the measurement waits for it to end.
 */
final class Warmup {
    /** Seconds of load per round; the JIT's share is judged per round. */
    static final int ROUND_SECONDS = 10;

    /** One round of the scenario's load, {@code seconds} long, on a topic the measurement does not read. */
    interface Round {
        void run(int seconds) throws Exception;
    }

    /** How long the warm-up took and how busy the JIT was in its last round. */
    record Result(int rounds, double seconds, double lastJitCores, boolean settled) {
        String describe(Limits limits) {
            return String.format(
                    Locale.ROOT,
                    "%d rounds of %d s in %.0f s; JIT %.2f cores in the last round (%s %.2f)",
                    rounds,
                    ROUND_SECONDS,
                    seconds,
                    lastJitCores,
                    settled ? "settled below" : "NOT settled below",
                    limits.jitCores());
        }
    }

    /** From {@code -Dbench.warmup.min}, {@code .max} (seconds) and {@code .jit} (cores, in hundredths). */
    record Limits(int minSeconds, int maxSeconds, double jitCores) {
        static Limits from(BenchSettings settings, int defaultMinSeconds) {
            // quick mode measures cold: it proves the path, not the speed
            Limits limits = new Limits(
                    settings.size("bench.warmup.min", defaultMinSeconds, defaultMinSeconds, 0),
                    settings.size("bench.warmup.max", 240, 240, 0),
                    settings.number("bench.warmup.jit-centicores", 10) / 100.0);
            if (limits.minSeconds < 0 || limits.maxSeconds < limits.minSeconds || limits.jitCores <= 0) {
                throw new IllegalArgumentException(
                        "need 0 <= bench.warmup.min <= bench.warmup.max and bench.warmup.jit-centicores >= 1");
            }
            return limits;
        }
    }

    private Warmup() {}

    /**
     * Rounds of {@code round} until at least {@code minSeconds} have passed and the JIT used less than {@code jitCores}
     * in the last round, or {@code maxSeconds} have passed; none when maxSeconds is 0.
     */
    static Result untilJitSettles(CpuMeter cpu, Limits limits, Round round) throws Exception {
        long start = System.nanoTime();
        int rounds = 0;
        double jit = Double.NaN;
        while (elapsedSeconds(start) < limits.maxSeconds()) {
            CpuMeter.Sample before = cpu.sample();
            round.run(ROUND_SECONDS);
            jit = CpuMeter.between(before, cpu.sample()).jit();
            rounds++;
            if (elapsedSeconds(start) >= limits.minSeconds() && jit < limits.jitCores()) {
                return new Result(rounds, elapsedSeconds(start), jit, true);
            }
        }
        return new Result(rounds, elapsedSeconds(start), jit, rounds > 0 && jit < limits.jitCores());
    }

    private static double elapsedSeconds(long startNs) {
        return (System.nanoTime() - startNs) / 1e9;
    }
}
