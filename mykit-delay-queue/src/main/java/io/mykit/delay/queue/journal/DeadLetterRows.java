package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Dead letters counted in the job table, never by scanning it: the (status, id) and (topic, status, id) indexes lead
 * straight to the dead rows, and each count stops after a limit.
 */
final class DeadLetterRows {
    private static final int DEAD = JobStatus.Dead.code();

    private final JdbcTemplate jdbc;

    DeadLetterRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Dead letters per topic, by topic name, among the first {@code limit} dead rows. */
    Map<String, Long> byTopic(int limit) {
        Map<String, Long> counts = new TreeMap<>();
        jdbc.query(
                "SELECT topic, COUNT(*) FROM (SELECT topic FROM mykit_delay_queue_job WHERE status = ? "
                        + "LIMIT ?) dead GROUP BY topic",
                row -> {
                    counts.put(row.getString(1), row.getLong(2));
                },
                DEAD,
                limit);
        return counts;
    }

    /** One topic's dead letters, counted up to {@code limit}. */
    long ofTopic(String topic, int limit) {
        Long n = jdbc.queryForObject(
                "SELECT COUNT(*) FROM (SELECT id FROM mykit_delay_queue_job "
                        + "WHERE topic = ? AND status = ? LIMIT ?) dead",
                Long.class,
                topic,
                DEAD,
                limit);
        return n == null ? 0 : n;
    }
}
