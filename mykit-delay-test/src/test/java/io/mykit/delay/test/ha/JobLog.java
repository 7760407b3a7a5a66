package io.mykit.delay.test.ha;

import io.mykit.delay.common.model.JobStatus;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The journal's log table read straight from MariaDB: who handed which job over, and when. In HA modes a row's host is
 * the node id of the gateway that wrote it; a pull job made ready is a Ready row of the node that pumped it.
 */
final class JobLog {

    /** One log row; {@code at} is the gateway's clock when the change happened (same machine, same clock). */
    record Row(String id, int status, String thread, long at, String host) {}

    // the gateway writes its local time into DATETIME(3); this JVM shares its zone
    private static final ZoneId ZONE = ZoneId.systemDefault();
    private static final String MOMENT = "CAST(? AS DATETIME(3))";
    private static final DateTimeFormatter MOMENT_FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final String COLUMNS =
            "SELECT id, status, thread, update_time, host FROM mykit_delay_queue_job_log ";

    private final String jdbcUrl;
    private final String user;
    private final String password;

    JobLog(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    /** Rows of {@code status} written by {@code host} for changes at or after {@code fromMillis}, oldest first. */
    List<Row> rows(String host, JobStatus status, long fromMillis) {
        return query(
                COLUMNS + "WHERE host = ? AND status = ? AND update_time >= " + MOMENT
                        + " ORDER BY update_time, log_id",
                host,
                status.code(),
                moment(fromMillis));
    }

    /** Rows of {@code status} by any host for changes in [fromMillis, toMillis), oldest first. */
    List<Row> rows(JobStatus status, long fromMillis, long toMillis) {
        return query(
                COLUMNS + "WHERE status = ? AND update_time >= " + MOMENT + " AND update_time < " + MOMENT
                        + " ORDER BY update_time, log_id",
                status.code(),
                moment(fromMillis),
                moment(toMillis));
    }

    /** How many rows of {@code status} each host wrote, for messages. */
    Map<String, Long> countByHost(JobStatus status) {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
                PreparedStatement statement = connection.prepareStatement("SELECT host, COUNT(*) FROM "
                        + "mykit_delay_queue_job_log WHERE status = ? GROUP BY host ORDER BY host")) {
            statement.setInt(1, status.code());
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    counts.put(result.getString(1), result.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the job log at " + jdbcUrl, e);
        }
        return counts;
    }

    private List<Row> query(String sql, Object... parameters) {
        List<Row> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(new Row(
                            result.getString(1),
                            result.getInt(2),
                            result.getString(3),
                            toMillis(result.getObject(4, LocalDateTime.class)),
                            result.getString(5)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the job log at " + jdbcUrl, e);
        }
        return rows;
    }

    // a LocalDateTime parameter reaches the server without its milliseconds: a bound written out in full does not
    private static String moment(long millis) {
        return MOMENT_FORMAT.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZONE));
    }

    private static long toMillis(LocalDateTime time) {
        return time.atZone(ZONE).toInstant().toEpochMilli();
    }
}
