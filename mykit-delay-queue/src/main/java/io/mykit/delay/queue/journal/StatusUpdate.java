package io.mykit.delay.queue.journal;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Sets one status on many job rows in one plain UPDATE. MyBatis' dynamic {@code <foreach>} renders its SQL again on
 * every call, a large share of the state writer's CPU; this text is built once per shape.
 */
final class StatusUpdate {
    private final ConcurrentHashMap<String, String> sqlByShape = new ConcurrentHashMap<>();

    /**
     * Changes the rows of {@code ids} to {@code status}; with {@code onlyFrom} only rows still in that status, with
     * {@code notIn} only rows in none of those statuses. Returns the number of rows changed.
     */
    int update(
            JdbcTemplate jdbc,
            Collection<String> ids,
            int status,
            LocalDateTime at,
            Integer onlyFrom,
            Collection<Integer> notIn) {
        if (ids.isEmpty()) {
            return 0;
        }
        MultiRowInsert.Sql statement = statement(ids, status, at, onlyFrom, notIn);
        return MultiRowInsert.update(jdbc, statement.text(), statement.args());
    }

    /** The UPDATE {@link #update} sends, not yet sent; {@code ids} not empty. */
    MultiRowInsert.Sql statement(
            Collection<String> ids, int status, LocalDateTime at, Integer onlyFrom, Collection<Integer> notIn) {
        String shape = ids.size() + "|" + (onlyFrom != null) + "|" + (notIn == null ? "" : notIn.toString());
        String sql = sqlByShape.computeIfAbsent(shape, key -> render(ids.size(), onlyFrom != null, notIn));
        List<Object> args = new ArrayList<>(ids.size() + 3);
        args.add(status);
        args.add(MultiRowInsert.text(at));
        args.addAll(ids);
        if (onlyFrom != null) {
            args.add(onlyFrom);
        }
        return new MultiRowInsert.Sql(sql, args);
    }

    private static String render(int idCount, boolean onlyFrom, Collection<Integer> notIn) {
        StringBuilder sql = new StringBuilder(
                        "UPDATE mykit_delay_queue_job SET status = ?, update_time = ? WHERE id IN (")
                .append(String.join(",", Collections.nCopies(idCount, "?")))
                .append(')');
        if (onlyFrom) {
            sql.append(" AND status = ?");
        }
        if (notIn != null && !notIn.isEmpty()) {
            // status codes are the engine's constants, never user input
            sql.append(" AND status NOT IN (")
                    .append(notIn.stream().map(String::valueOf).collect(Collectors.joining(",")))
                    .append(')');
        }
        return sql.toString();
    }
}
