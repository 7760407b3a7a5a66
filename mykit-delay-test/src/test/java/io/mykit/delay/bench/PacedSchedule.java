package io.mykit.delay.bench;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The broker-alone comparison's open-loop schedule: message i has its slot at start + i / rate, is sent no earlier, and
 * its lateness is the time from the slot to the send's confirmation, so one stall counts for every message it held up
 * (as a due job held up by the gateway counts).
 */
final class PacedSchedule {
    /** Unmeasured receipts wait this long at most for the broker's first delivery (a new consumer's assignment). */
    static final long PROBE_WAIT_MS = 60_000;
    /** Receipts of the measured messages wait this long after the last send. */
    static final long RECEIPT_WAIT_MS = 30_000;

    /** Unmeasured seconds at the rate first: this JVM's producer and consumer then run compiled code. */
    static final int WARMUP_SECONDS = 10;

    /** Sends message {@code id} planned for {@code slotEpochMs} and returns once the broker confirmed it. */
    interface Send {
        void send(String id, long slotEpochMs) throws Exception;
    }

    private PacedSchedule() {}

    /**
     * Sends {@code rate} messages a second for {@code seconds}, ids {@code prefix + 0, 1, ...}; the lateness of each
     * confirmation, ms.
     */
    static Histogram run(String prefix, int rate, int seconds, Send send) throws Exception {
        Histogram lateness = new Histogram();
        long startNanos = System.nanoTime();
        long startEpochMs = System.currentTimeMillis();
        long total = (long) rate * seconds;
        for (long i = 0; i < total; i++) {
            long offsetNanos = i * 1_000_000_000L / rate;
            long slot = startNanos + offsetNanos;
            awaitSlot(slot);
            send.send(prefix + i, startEpochMs + offsetNanos / 1_000_000);
            lateness.record((System.nanoTime() - slot) / 1_000_000);
        }
        return lateness;
    }

    /** Returns at {@code slotNanos} ({@link System#nanoTime()}), at once when it has passed: an open-loop send time. */
    static void awaitSlot(long slotNanos) {
        long wait;
        while ((wait = slotNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }

    /**
     * The whole comparison: a probe message to the consumer, {@link #WARMUP_SECONDS} unmeasured, then {@code seconds}
     * measured; {@code receipts} is what the broker's consumer fills.
     */
    static BenchBroker.Paced measure(String broker, String how, Receipts receipts, int rate, int seconds, Send send)
            throws Exception {
        send.send("probe", System.currentTimeMillis());
        long deadline = System.currentTimeMillis() + PROBE_WAIT_MS;
        while (!receipts.contains("probe") && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        if (!receipts.contains("probe")) {
            throw new IllegalStateException(broker + " alone: the probe message never reached the consumer");
        }
        run("warm-", rate, WARMUP_SECONDS, send);
        awaitReceipts(receipts, ids("warm-", (long) rate * WARMUP_SECONDS), RECEIPT_WAIT_MS);
        receipts.clear();
        Histogram ack = run("paced-", rate, seconds, send);
        Set<String> ids = ids("paced-", (long) rate * seconds);
        awaitReceipts(receipts, ids, RECEIPT_WAIT_MS);
        return new BenchBroker.Paced(ack, receipts.lateness(ids), ids.size(), ids.size() - receipts.missing(ids), how);
    }

    /** Waits until {@code receipts} holds every one of {@code ids} or {@code maxMs} passed. */
    private static void awaitReceipts(Receipts receipts, Set<String> ids, long maxMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + maxMs;
        while (receipts.missing(ids) > 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
    }

    /** The ids {@code prefix + 0 .. total - 1} of a schedule's messages. */
    private static Set<String> ids(String prefix, long total) {
        Set<String> ids = new HashSet<>();
        for (long i = 0; i < total; i++) {
            ids.add(prefix + i);
        }
        return ids;
    }
}
