package io.mykit.delay.bench;

import java.util.Locale;

/**
 * The performance issue's targets beside beanstalkd and beside an older jar, each a ratio within one sitting, with the
 * texts and verdicts the peer and A/B scenarios print. A verdict against a beanstalkd run that lost jobs or did not
 * keep the asked rate reads "n/a": a figure beside a peer that could not run the load compares nothing.
 */
final class PeerTargets {
    /** The gateway's lateness p99 may lie this far above beanstalkd's at the same load. */
    static final long LATENESS_P99_MARGIN_MS = 5;
    /** The gateway's lateness p99.9 may lie this far above beanstalkd's. */
    static final long LATENESS_P999_MARGIN_MS = 10;
    /** A drain of jobs due at one instant: at least this many times beanstalkd's rate. */
    static final double DRAIN_RATIO = 1.5;
    /** 16 producers of single durable pushes: at least this share of beanstalkd's put rate with its binlog. */
    static final double PUSH_RATIO = 0.25;
    /** A fresh gateway's producers' max send lag: at most this many times beanstalkd's. */
    static final double SEND_LAG_RATIO = 10;
    /** A fresh gateway with its default settings on external stores: launch to serving at most this. */
    static final long LAUNCH_TO_SERVING_MS = 15_000;
    /** CPU per delivered job (gateway + Redis + journal): at most this share of the older jar's. */
    static final double AB_CPU_RATIO = 1.0 / 3;
    /** A peer that reached less than this share of the asked rate did not run the scenario's load. */
    private static final double KEPT_UP_SHARE = 0.95;

    private static final String PEER_FELL_BEHIND = "n/a: peer fell behind";

    private PeerTargets() {}

    /** "p99 <= 14, p99.9 <= 31 ms (beanstalkd -f0 + 5 / + 10)". */
    static String latenessTarget(Histogram peer, String peerLabel) {
        return String.format(
                Locale.ROOT,
                "p99 <= %d, p99.9 <= %d ms (%s + %d / + %d)",
                peer.percentile(99) + LATENESS_P99_MARGIN_MS,
                peer.percentile(99.9) + LATENESS_P999_MARGIN_MS,
                peerLabel,
                LATENESS_P99_MARGIN_MS,
                LATENESS_P999_MARGIN_MS);
    }

    static boolean latenessMet(Histogram gateway, Histogram peer) {
        return gateway.count() > 0
                && peer.count() > 0
                && gateway.percentile(99) <= peer.percentile(99) + LATENESS_P99_MARGIN_MS
                && gateway.percentile(99.9) <= peer.percentile(99.9) + LATENESS_P999_MARGIN_MS;
    }

    /** A verdict beside a peer: "n/a" when the peer's run does not count. */
    static String verdictBeside(boolean peerCounts, boolean met) {
        return peerCounts ? ReportTable.verdict(met) : PEER_FELL_BEHIND;
    }

    /** Every pushed job arrived once, none unasked for, no call failed, and the rate asked was reached. */
    static boolean keptUp(LoadDriver.Lateness l, int rate) {
        return complete(l)
                && l.pushErrors() + l.pullErrors() + l.finishErrors() == 0
                && l.pushRate() >= KEPT_UP_SHARE * rate;
    }

    static boolean complete(LoadDriver.Lateness l) {
        return l.pushed() > 0
                && l.missing() == 0
                && l.duplicates() == 0
                && l.unexpected() == 0
                && l.received() == l.pushed();
    }

    static boolean complete(LoadDriver.Drain d, long pushed) {
        return pushed > 0 && d.missing() == 0 && d.unexpected() == 0 && d.received() == pushed;
    }

    /** "1,000 / 1,000; missing 0, duplicates 0, unexpected 0". */
    static String received(long received, long pushed, long missing, long duplicates, long unexpected) {
        return String.format(
                "%s / %s; missing %d, duplicates %d, unexpected %d",
                ReportTable.count(received), ReportTable.count(pushed), missing, duplicates, unexpected);
    }

    static String received(LoadDriver.Lateness l) {
        return received(l.received(), l.pushed(), l.missing(), l.duplicates(), l.unexpected());
    }

    /** "998 jobs/s by 4 producers; push p50 / p99 1.2 / 4.5 ms; send lag max 3 ms". */
    static String push(LoadDriver.Lateness l, int producers) {
        Histogram latency = l.pushMicros();
        return String.format(
                Locale.ROOT,
                "%s jobs/s by %d producers; push p50 / p99 %s / %s ms; send lag max %d ms",
                ReportTable.count(l.pushRate()),
                producers,
                ReportTable.micros(latency.percentile(50)),
                ReportTable.micros(latency.percentile(99)),
                l.sendLagMs().max());
    }

    /** "p50 / p99 / p99.9 / max ms (n=...)" of a send lag. */
    static String sendLag(Histogram lag) {
        return String.format(
                Locale.ROOT,
                "%d / %d / %d / %d ms (n=%s)",
                lag.percentile(50),
                lag.percentile(99),
                lag.percentile(99.9),
                lag.max(),
                ReportTable.count(lag.count()));
    }

    /** "push 0, get 0, finish 0". */
    static String errors(LoadDriver.Lateness l) {
        return String.format("push %d, get %d, finish %d", l.pushErrors(), l.pullErrors(), l.finishErrors());
    }

    /** "2.31x"; "?" when the divisor is not positive. */
    static String ratio(double a, double b) {
        return b <= 0 || a < 0 ? "?" : String.format(Locale.ROOT, "%.2fx", a / b);
    }
}
