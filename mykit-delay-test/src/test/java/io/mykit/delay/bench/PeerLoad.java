package io.mykit.delay.bench;

import java.util.List;
import java.util.Locale;

/**
 * The load every peer scenario puts on the gateway and on beanstalkd alike, from {@code -Dbench.peer.*}: the issue's
 * harness (4 producers of single pushes at 1,000/s in all, 4 consumers, 100-byte bodies), the consumer styles to run
 * ({@code bench.peer.styles}) and the beanstalkd fsync modes to run beside the gateway ({@code bench.beanstalkd.fsync}:
 * {@code always} by default; a list such as {@code always,50} runs each in the same sitting, and the verdicts compare
 * with the first).
 */
record PeerLoad(
        int rate,
        int pushers,
        int pullers,
        int minDelayMs,
        int maxDelayMs,
        List<ConsumerStyle> styles,
        List<Beanstalkd.Mode> modes) {

    /** Time after the last job fell due that a steady run still waits for stragglers. */
    static final long DELIVERY_GRACE_MS = 30_000;

    static PeerLoad from(BenchSettings s) {
        PeerLoad load = new PeerLoad(
                s.size("bench.peer.rate", 1000, 1000, 200),
                s.number("bench.peer.pushers", 4),
                s.number("bench.peer.pullers", 4),
                s.number("bench.peer.min-delay", 1000),
                s.number("bench.peer.max-delay", 2000),
                ConsumerStyle.from(s, "bench.peer.styles", "batch,single,stream"),
                Beanstalkd.Mode.parseList(s.text("bench.beanstalkd.fsync", "50")));
        if (load.rate < 1 || load.pushers < 1 || load.pullers < 1) {
            throw new IllegalArgumentException("bench.peer.rate, .pushers and .pullers must be >= 1");
        }
        if (load.minDelayMs < 500 || load.maxDelayMs < load.minDelayMs) {
            throw new IllegalArgumentException("need 500 <= bench.peer.min-delay <= bench.peer.max-delay: beanstalkd"
                    + " counts delays in whole seconds, at least 1");
        }
        return load;
    }

    /** The beanstalkd mode the verdicts compare with: the first named. */
    Beanstalkd.Mode reference() {
        return modes.get(0);
    }

    /** "due 1,000-2,000 ms after the push (beanstalkd: rounded to whole seconds)". */
    String delays() {
        return String.format(
                Locale.ROOT,
                "due %,d-%,d ms after the push (beanstalkd: rounded to whole seconds)",
                minDelayMs,
                maxDelayMs);
    }
}
