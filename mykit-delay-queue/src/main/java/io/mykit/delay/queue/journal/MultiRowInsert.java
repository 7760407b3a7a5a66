package io.mykit.delay.queue.journal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One multi-row INSERT for a group of rows, with plain placeholders: MyBatis' foreach rewrites its SQL per placeholder
 * on every call, while this statement text is built once per row count.
 */
final class MultiRowInsert<T> {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private final String head;
    private final String rowPlaceholders;
    private final Function<T, Object[]> columns;
    private final ConcurrentHashMap<Integer, String> sqlByRows = new ConcurrentHashMap<>();

    /** {@code head} is everything before VALUES, e.g. {@code INSERT INTO t (a, b)}. */
    MultiRowInsert(String head, int columnCount, Function<T, Object[]> columns) {
        this.head = head;
        this.rowPlaceholders = "(" + String.join(",", java.util.Collections.nCopies(columnCount, "?")) + ")";
        this.columns = columns;
    }

    int insert(JdbcTemplate jdbc, List<T> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        Sql statement = statement(rows);
        return update(jdbc, statement.text(), statement.args());
    }

    /** The INSERT of {@code rows} (not empty), not yet sent. */
    Sql statement(List<T> rows) {
        String sql = sqlByRows.computeIfAbsent(
                rows.size(),
                n -> head + " VALUES " + String.join(",", java.util.Collections.nCopies(n, rowPlaceholders)));
        List<Object> args = new ArrayList<>(rows.size() * 16);
        LocalDateTime lastTime = null;
        String lastText = null;
        for (T row : rows) {
            for (Object value : columns.apply(row)) {
                if (value instanceof LocalDateTime time) {
                    // the rows of one group mostly share one time: format it once
                    if (!time.equals(lastTime)) {
                        lastTime = time;
                        lastText = text(time);
                    }
                    args.add(lastText);
                } else {
                    args.add(value);
                }
            }
        }
        return new Sql(sql, args);
    }

    /**
     * Runs {@code sql} with its arguments bound by their Java type. JdbcTemplate's own binding asks the driver for
     * parameter metadata on every null and walks the arguments again afterwards, a large share of a group commit's CPU.
     */
    static int update(JdbcTemplate jdbc, String sql, List<Object> args) {
        return jdbc.update(connection -> {
            PreparedStatement statement = connection.prepareStatement(sql);
            for (int i = 0; i < args.size(); i++) {
                bind(statement, i + 1, args.get(i));
            }
            return statement;
        });
    }

    static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else {
            statement.setObject(index, value);
        }
    }

    /** One statement's text and its arguments in placeholder order. */
    record Sql(String text, List<Object> args) {}

    /** {@code count} comma-separated placeholders, for an {@code IN (...)} list. */
    static String placeholders(int count) {
        return String.join(",", java.util.Collections.nCopies(count, "?"));
    }

    /** Text keeps the milliseconds that mysql-connector-j drops from temporal values on MariaDB 10. */
    static String text(LocalDateTime time) {
        return time == null ? null : MILLIS.format(time);
    }
}
