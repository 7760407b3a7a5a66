package io.mykit.delay.core.journal;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the original mykit-delay's two tables (utf8, {@code ttl int}, no priority/tries/attempts/due_time, a log table
 * without a key, no Flyway history) to the shape of this gateway's V1 migration, so Flyway can baseline at 1 and apply
 * the later migrations. Every step checks first whether it is still needed: MySQL DDL is not transactional, and a start
 * that died half-way must be able to finish the job on the next start.
 */
public final class OriginalSchemaUpgrade {
    static final String JOB = "mykit_delay_queue_job";
    static final String LOG = "mykit_delay_queue_job_log";
    private static final Logger log = LoggerFactory.getLogger(OriginalSchemaUpgrade.class);

    private final DataSource dataSource;
    private final String historyTable;

    public OriginalSchemaUpgrade(DataSource dataSource, String historyTable) {
        this.dataSource = dataSource;
        this.historyTable = historyTable;
    }

    /** The original's tables without Flyway's history: only then is there anything to upgrade. */
    public boolean needed() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return isMySql(c) && tableExists(c, JOB) && !tableExists(c, historyTable);
        }
    }

    /** Runs the missing steps; afterwards the tables match V1 (the caller baselines Flyway at 1). */
    public void run() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            long pending = count(s, "SELECT COUNT(*) FROM " + JOB + " WHERE status IN (0, 1, 2, 5, 6)");
            log.warn(
                    "the original mykit-delay's tables found without a Flyway history ({} pending jobs): upgrading "
                            + "them in place to this gateway's schema",
                    pending);
            if (!tableCollation(c, JOB).startsWith("utf8mb4")) {
                // utf8 (3 bytes) cannot hold every body this gateway accepts; TEXT becomes MEDIUMTEXT on the way
                s.execute("ALTER TABLE " + JOB + " CONVERT TO CHARACTER SET utf8mb4");
            }
            List<String> changes = new ArrayList<>();
            if (!columnExists(c, JOB, "priority")) {
                changes.add("ADD COLUMN priority INT DEFAULT 0 AFTER delay");
            }
            // the original's ttl was an int; this gateway's is milliseconds in a BIGINT
            changes.add("MODIFY COLUMN ttl BIGINT DEFAULT 0");
            if (!columnExists(c, JOB, "tries")) {
                changes.add("ADD COLUMN tries INT DEFAULT 0 AFTER ttl");
            }
            if (!columnExists(c, JOB, "attempts")) {
                changes.add("ADD COLUMN attempts INT DEFAULT 0 AFTER tries");
            }
            if (!columnExists(c, JOB, "due_time")) {
                changes.add("ADD COLUMN due_time BIGINT DEFAULT NULL AFTER create_time");
            }
            changes.add("MODIFY COLUMN body MEDIUMTEXT");
            // the original's (id, status) and (status) indexes: the primary key and V3's (status, id) replace them
            for (String index : List.of("mykit_delay_queue_job_ID_STATUS", "mykit_delay_queue_job_STATUS")) {
                if (indexExists(c, JOB, index)) {
                    changes.add("DROP INDEX " + index);
                }
            }
            s.execute("ALTER TABLE " + JOB + " " + String.join(", ", changes));
            // the original wrote every row with create_time and delay; a row without one is due at once
            int filled =
                    s.executeUpdate("UPDATE " + JOB + " SET due_time = COALESCE(create_time, 0) + COALESCE(delay, 0),"
                            + " priority = COALESCE(priority, 0), ttl = COALESCE(ttl, 0), tries = COALESCE(tries, 0),"
                            + " attempts = COALESCE(attempts, 0) WHERE due_time IS NULL");
            if (!indexExists(c, JOB, "mykit_delay_queue_job_STATUS_DUE")) {
                // V1 made it and V3 drops it: it must be there for V3
                s.execute("CREATE INDEX mykit_delay_queue_job_STATUS_DUE ON " + JOB + " (status, due_time)");
            }
            if (tableExists(c, LOG)) {
                if (!tableCollation(c, LOG).startsWith("utf8mb4")) {
                    s.execute("ALTER TABLE " + LOG + " CONVERT TO CHARACTER SET utf8mb4");
                }
                if (!columnExists(c, LOG, "log_id")) {
                    s.execute("ALTER TABLE " + LOG
                            + " ADD COLUMN log_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST");
                }
                if (!indexExists(c, LOG, "mykit_delay_queue_job_LOG_ID_STATUS")) {
                    s.execute("CREATE INDEX mykit_delay_queue_job_LOG_ID_STATUS ON " + LOG + " (id, status)");
                }
            } else {
                s.execute("CREATE TABLE " + LOG + " (log_id BIGINT NOT NULL AUTO_INCREMENT, id VARCHAR(128) NOT NULL,"
                        + " status INT DEFAULT NULL, thread VARCHAR(60) DEFAULT NULL, update_time "
                        + "DATETIME(3) DEFAULT NULL,"
                        + " host VARCHAR(128) DEFAULT NULL, PRIMARY KEY (log_id))");
                s.execute("CREATE INDEX mykit_delay_queue_job_LOG_ID_STATUS ON " + LOG + " (id, status)");
            }
            log.warn("original schema upgraded: {} rows got a due time; Flyway continues from version 1", filled);
        }
    }

    private static boolean isMySql(Connection c) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        return product.contains("mysql") || product.contains("mariadb");
    }

    private static boolean tableExists(Connection c, String table) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        try (ResultSet rs = meta.getTables(c.getCatalog(), null, table, new String[] {"TABLE"})) {
            return rs.next();
        }
    }

    private static boolean columnExists(Connection c, String table, String column) throws SQLException {
        try (ResultSet rs = c.getMetaData().getColumns(c.getCatalog(), null, table, column)) {
            return rs.next();
        }
    }

    private static boolean indexExists(Connection c, String table, String index) throws SQLException {
        try (ResultSet rs = c.getMetaData().getIndexInfo(c.getCatalog(), null, table, false, false)) {
            while (rs.next()) {
                if (index.equalsIgnoreCase(rs.getString("INDEX_NAME"))) {
                    return true;
                }
            }
            return false;
        }
    }

    private static String tableCollation(Connection c, String table) throws SQLException {
        try (var ps = c.prepareStatement("SELECT TABLE_COLLATION FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getString(1) != null ? rs.getString(1).toLowerCase(Locale.ROOT) : "";
            }
        }
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
