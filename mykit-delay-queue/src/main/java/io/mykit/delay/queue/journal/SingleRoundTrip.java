package io.mykit.delay.queue.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A transaction sent to MySQL/MariaDB as one multi-statement round trip: {@code BEGIN; s1; s2; COMMIT}. Spring's
 * transaction around the same statements takes a round trip each for SET autocommit=0, every statement, COMMIT and SET
 * autocommit=1, and each round trip is a thread wake-up on both ends: on a small host they make up most of a push's
 * latency.
 *
 * <p>MariaDB stops at the first failing statement and leaves the transaction open, so a failure sends ROLLBACK before
 * the connection goes back to the pool (a connection that cannot even roll back is broken, and Hikari drops it). A
 * deadlock victim was rolled back whole by InnoDB already; the ROLLBACK is then a no-op.
 *
 * <p>Needs mysql-connector-j's {@code allowMultiQueries} ({@code JdbcUrlDefaults} adds it to a {@code jdbc:mysql:}
 * URL); {@link #works} tells whether a journal's connections take it, and other databases (the embedded H2) keep
 * Spring's transactions.
 */
final class SingleRoundTrip {
    /** SQLSTATE of a statement the server could not parse. */
    private static final String SYNTAX_ERROR = "42000";

    private SingleRoundTrip() {}

    /** Whether {@code jdbc}'s database is MySQL/MariaDB and its connections run several statements in one call. */
    static boolean works(JdbcTemplate jdbc) {
        Boolean works = jdbc.execute((ConnectionCallback<Boolean>) connection -> {
            if (!connection
                    .getMetaData()
                    .getDatabaseProductName()
                    .toLowerCase(Locale.ROOT)
                    .matches("mysql|mariadb")) {
                return false;
            }
            try (Statement probe = connection.createStatement()) {
                drain(probe, probe.execute("SELECT 1; SELECT 2"));
                return true;
            } catch (SQLException refused) {
                if (SYNTAX_ERROR.equals(refused.getSQLState())) {
                    // allowMultiQueries is off: the server reports a syntax error at the second statement
                    return false;
                }
                // anything else (a lost connection) tells nothing: the caller asks again later
                throw refused;
            }
        });
        return Boolean.TRUE.equals(works);
    }

    /**
     * Runs {@code statements} (not empty) in one transaction, in one round trip; with {@code timeoutMs} > 0 a database
     * that stops answering fails the call after that long (see {@link #bound}). Returns each statement's count of rows
     * changed, in order (-1 for one the server's answer did not tell).
     */
    static int[] run(JdbcTemplate jdbc, List<MultiRowInsert.Sql> statements, int timeoutMs) {
        StringBuilder text = new StringBuilder("BEGIN");
        List<Object> args = new ArrayList<>();
        for (MultiRowInsert.Sql statement : statements) {
            text.append(";\n").append(statement.text());
            args.addAll(statement.args());
        }
        text.append(";\nCOMMIT");
        List<Integer> counts = jdbc.execute((ConnectionCallback<List<Integer>>) connection -> {
            bound(connection, timeoutMs);
            try (PreparedStatement call = connection.prepareStatement(text.toString())) {
                for (int i = 0; i < args.size(); i++) {
                    MultiRowInsert.bind(call, i + 1, args.get(i));
                }
                return drain(call, call.execute());
            } catch (SQLException e) {
                rollback(connection, e);
                throw e;
            }
        });
        int[] changed = new int[statements.size()];
        // the answers are BEGIN's, one per statement, then COMMIT's
        boolean told = counts != null && counts.size() == statements.size() + 2;
        for (int i = 0; i < changed.length; i++) {
            changed[i] = told ? counts.get(i + 1) : -1;
        }
        return changed;
    }

    /**
     * A read that waits longer than {@code timeoutMs} fails and the connection is dropped (the transaction's outcome is
     * then unknown, as with any lost connection); the pool puts its own network timeout back when the connection
     * returns. Drivers without network timeouts (H2, in-process) are left as they are.
     */
    static void bound(Connection connection, int timeoutMs) throws SQLException {
        if (timeoutMs <= 0) {
            return;
        }
        try {
            connection.setNetworkTimeout(Runnable::run, timeoutMs);
        } catch (SQLFeatureNotSupportedException inProcess) {
            // nothing to time out
        }
    }

    /**
     * Reads every statement's result, so an error in a later statement (or the COMMIT) is raised here; returns their
     * counts of rows changed in order (-1 for a result set).
     */
    private static List<Integer> drain(Statement call, boolean resultSet) throws SQLException {
        List<Integer> counts = new ArrayList<>();
        boolean isResultSet = resultSet;
        while (true) {
            int count = isResultSet ? -1 : call.getUpdateCount();
            if (!isResultSet && count == -1) {
                return counts;
            }
            counts.add(count);
            isResultSet = call.getMoreResults();
        }
    }

    private static void rollback(Connection connection, SQLException cause) {
        try (Statement rollback = connection.createStatement()) {
            rollback.execute("ROLLBACK");
        } catch (SQLException broken) {
            cause.addSuppressed(broken);
        }
    }
}
