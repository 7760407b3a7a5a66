package io.mykit.delay.queue.stats;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.JobStatus;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dead letters per topic. They live in the journal only, so they are counted there, but never by scanning it: the
 * (status, id) and (topic, status, id) indexes lead straight to the dead rows, at most {@link #CAP} of them per query,
 * and the all-topics count is reused for {@link #REUSE_MS}.
 */
public class DeadLetterCounts {
    /** Counts stop here and are reported as a lower bound: a huge dead-letter pile must not make /stats slow. */
    public static final int CAP = 100_000;
    static final long REUSE_MS = 5_000;
    private static final int DEAD = JobStatus.Dead.code();

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private Counted last;
    private long lastAt = Long.MIN_VALUE;

    public DeadLetterCounts(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Dead letters by topic; {@code exact} false when the cap was reached (the numbers are then lower bounds). */
    public record Counted(Map<String, Long> byTopic, boolean exact) {
    }

    public synchronized Counted byTopic() {
        long now = clock.millis();
        if (last == null || now - lastAt >= REUSE_MS) {
            Map<String, Long> counts = new TreeMap<>();
            run(() -> jdbc.query("SELECT topic, COUNT(*) FROM (SELECT topic FROM mykit_delay_queue_job WHERE status = ? "
                    + "LIMIT ?) dead GROUP BY topic", row -> {
                counts.put(row.getString(1), row.getLong(2));
            }, DEAD, CAP + 1));
            long total = counts.values().stream().mapToLong(Long::longValue).sum();
            last = new Counted(counts, total <= CAP);
            lastAt = now;
        }
        return last;
    }

    /** One topic's dead letters, up to {@link #CAP} + 1 (more than the cap means "at least"). */
    public long of(String topic) {
        Long n = query(() -> jdbc.queryForObject("SELECT COUNT(*) FROM (SELECT id FROM mykit_delay_queue_job "
                + "WHERE topic = ? AND status = ? LIMIT ?) dead", Long.class, topic, DEAD, CAP + 1));
        return n == null ? 0 : n;
    }

    private static <T> T query(java.util.function.Supplier<T> work) {
        try {
            return work.get();
        } catch (DataAccessException e) {
            throw new StoreUnavailableException("journal", e.getMessage(), e);
        }
    }

    private static void run(Runnable work) {
        query(() -> {
            work.run();
            return null;
        });
    }
}
