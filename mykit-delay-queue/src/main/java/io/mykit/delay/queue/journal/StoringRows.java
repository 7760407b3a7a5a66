package io.mykit.delay.queue.journal;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The storing rows ({@code mykit_delay_queue_storing}): one per push group whose Redis add is not confirmed, listing
 * its ids as {@code ',id1,id2,'}. A push commits its group's row with the job rows; the row goes once Redis holds the
 * group, so while a job is listed its push may still add it to Redis.
 */
final class StoringRows {
    private static final String INSERT =
            "INSERT INTO mykit_delay_queue_storing (group_id, ids, host, create_time) VALUES (?, ?, ?, ?)";
    private static final String LISTS = "SELECT 1 FROM mykit_delay_queue_storing WHERE LOCATE(?, ids) > 0 LIMIT 1";

    private final JdbcTemplate jdbc;
    private final String host;
    /** Rows are keyed by this JVM's random prefix and a counter: unique whatever ids the groups hold. */
    private final String groupPrefix =
            Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";

    private final AtomicLong groupCounter = new AtomicLong();

    StoringRows(JdbcTemplate jdbc, String host) {
        this.jdbc = jdbc;
        this.host = host;
    }

    /** A key no other group of any node has. */
    String nextGroupKey() {
        return groupPrefix + groupCounter.incrementAndGet();
    }

    /** The INSERT, not yet sent, of the row {@code groupKey} listing {@code jobIds}. */
    MultiRowInsert.Sql insertStatement(String groupKey, Collection<String> jobIds, LocalDateTime time) {
        StringBuilder ids = new StringBuilder(jobIds.size() * 40).append(',');
        for (String id : jobIds) {
            ids.append(id).append(',');
        }
        return new MultiRowInsert.Sql(INSERT, List.of(groupKey, ids.toString(), host, MultiRowInsert.text(time)));
    }

    /** The DELETE, not yet sent, of the rows {@code groupKeys} (not empty). */
    static MultiRowInsert.Sql deleteStatement(Collection<String> groupKeys) {
        return new MultiRowInsert.Sql(
                "DELETE FROM mykit_delay_queue_storing WHERE group_id IN ("
                        + MultiRowInsert.placeholders(groupKeys.size()) + ")",
                new ArrayList<>(groupKeys));
    }

    /** Deletes the rows {@code groupKeys} (not empty). */
    void delete(Collection<String> groupKeys) {
        MultiRowInsert.Sql delete = deleteStatement(groupKeys);
        MultiRowInsert.update(jdbc, delete.text(), delete.args());
    }

    /** Up to {@code limit} rows written before {@code before}, in no particular order. */
    List<UnconfirmedGroup> before(LocalDateTime before, int limit) {
        // no ORDER BY: the table has no index on the time, and the caller deletes each page it took
        return jdbc.query(
                "SELECT group_id, ids, create_time FROM mykit_delay_queue_storing WHERE create_time < ? LIMIT ?",
                (rs, n) -> new UnconfirmedGroup(
                        rs.getString(1),
                        splitIds(rs.getString(2)),
                        rs.getTimestamp(3).getTime()),
                MultiRowInsert.text(before),
                limit);
    }

    /** Whether a row lists {@code jobId}. */
    boolean lists(String jobId) {
        return !jdbc.queryForList(LISTS, Integer.class, listed(jobId)).isEmpty();
    }

    /** Every id a row lists (the table holds only the last moments' groups). */
    Set<String> listedIds() {
        Set<String> storing = new HashSet<>();
        jdbc.query("SELECT ids FROM mykit_delay_queue_storing", rs -> {
            storing.addAll(splitIds(rs.getString(1)));
        });
        return storing;
    }

    /** The text a row's ids hold for {@code jobId}, for a LOCATE. */
    static String listed(String jobId) {
        return "," + jobId + ",";
    }

    private static List<String> splitIds(String packed) {
        List<String> ids = new ArrayList<>();
        int start = 1;
        for (int comma = packed.indexOf(',', start); comma > 0; comma = packed.indexOf(',', start)) {
            if (comma > start) {
                ids.add(packed.substring(start, comma));
            }
            start = comma + 1;
        }
        return ids;
    }
}
