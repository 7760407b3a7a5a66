package io.mykit.delay.queue.stats;

import io.mykit.delay.queue.journal.Journal;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dead letters per topic. They live in the journal only, so they are counted there, but never by scanning it: at most
 * {@link #CAP} of them per count ({@link Journal#deadLettersByTopic}), and the all-topics count is reused for
 * {@link #REUSE_MS}.
 */
public class DeadLetterCounts {
    /** Counts stop here and are reported as a lower bound: a huge dead-letter pile must not make /stats slow. */
    public static final int CAP = 100_000;

    static final long REUSE_MS = 5_000;

    private final Journal journal;
    private final Clock clock;
    private Counted last;
    private long lastAt = Long.MIN_VALUE;

    public DeadLetterCounts(Journal journal, Clock clock) {
        this.journal = journal;
        this.clock = clock;
    }

    /** Dead letters by topic; {@code exact} false when the cap was reached (the numbers are then lower bounds). */
    public record Counted(Map<String, Long> byTopic, boolean exact) {}

    public synchronized Counted byTopic() {
        long now = clock.millis();
        if (last == null || now - lastAt >= REUSE_MS) {
            Map<String, Long> counts = new TreeMap<>(journal.deadLettersByTopic(CAP + 1));
            long total = counts.values().stream().mapToLong(Long::longValue).sum();
            last = new Counted(counts, total <= CAP);
            lastAt = now;
        }
        return last;
    }

    /** One topic's dead letters, up to {@link #CAP} + 1 (more than the cap means "at least"). */
    public long of(String topic) {
        return journal.deadLetters(topic, CAP + 1);
    }
}
