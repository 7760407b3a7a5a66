package io.mykit.delay.bench;

import java.util.Locale;

/** The figures issue #14 asks for, in one place, with the lateness text every delivery scenario prints. */
final class IssueTargets {
    static final double SINGLE_PUSH_PER_S = 8_000;
    static final double BATCH_JOBS_PER_S = 50_000;
    static final long LATENESS_P50_MS = 2;
    static final long LATENESS_P99_MS = 10;
    static final long LATENESS_P999_MS = 25;
    static final long LATENESS_MAX_MS = 50;
    static final double DRAIN_PER_S = 50_000;
    static final long RESTORE_MS = 30_000;
    static final long SEND_LAG_MAX_MS = 50;
    static final double REDIS_BYTES_BEYOND_BODY = 200;
    /** How far the gateway's p99 and p99.9 to ActiveMQ may lie above the broker alone at the same rate. */
    static final long BROKER_MARGIN_MS = 5;

    static final String LATENESS_TARGET = "p50 <= " + LATENESS_P50_MS + ", p99 <= " + LATENESS_P99_MS + ", p99.9 <= "
            + LATENESS_P999_MS + ", max <= " + LATENESS_MAX_MS + " ms";

    private IssueTargets() {}

    /** "p50 / p99 / p99.9 / max ms (n=..., min ...)". */
    static String lateness(Histogram ms) {
        return String.format(
                Locale.ROOT,
                "%d / %d / %d / %d ms (n=%s, min %d)",
                ms.percentile(50),
                ms.percentile(99),
                ms.percentile(99.9),
                ms.max(),
                ReportTable.count(ms.count()),
                ms.min());
    }

    static boolean latenessMet(Histogram ms) {
        return ms.count() > 0
                && ms.percentile(50) <= LATENESS_P50_MS
                && ms.percentile(99) <= LATENESS_P99_MS
                && ms.percentile(99.9) <= LATENESS_P999_MS
                && ms.max() <= LATENESS_MAX_MS;
    }
}
