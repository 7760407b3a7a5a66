package io.mykit.delay.test.chaos;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.store.Keys;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;

/**
 * Where an accepted but undelivered job went: its journal row, its journal log and every Redis structure that could
 * hold it. Written into the failure message, so a loss is explained by the run that found it.
 */
final class LossEvidence {

    private static final int MAX_JOBS_SHOWN = 15;

    private final String jdbcUrl;
    private final String jdbcUser;
    private final String jdbcPassword;
    private final String redisHost;
    private final int redisPort;
    private final Keys keys;
    private final String topic;

    LossEvidence(
            String jdbcUrl,
            String jdbcUser,
            String jdbcPassword,
            String redisHost,
            int redisPort,
            Keys keys,
            String topic) {
        this.jdbcUrl = jdbcUrl;
        this.jdbcUser = jdbcUser;
        this.jdbcPassword = jdbcPassword;
        this.redisHost = redisHost;
        this.redisPort = redisPort;
        this.keys = keys;
        this.topic = topic;
    }

    /** One paragraph per lost id (the first few), relative times in ms since the load started. */
    String describe(Collection<String> lostIds, Map<String, ChaosLoad.Accepted> accepted, long startMillis) {
        StringBuilder out = new StringBuilder();
        List<String> shown = lostIds.stream().sorted().limit(MAX_JOBS_SHOWN).toList();
        try (Connection sql = DriverManager.getConnection(jdbcUrl, jdbcUser, jdbcPassword);
                Jedis redis = new Jedis(redisHost, redisPort, 30_000)) {
            for (String id : shown) {
                ChaosLoad.Accepted push = accepted.get(id);
                out.append("\n- ")
                        .append(id)
                        .append(": delay ")
                        .append(push.delayMs())
                        .append(" ms, client id ")
                        .append(push.clientId())
                        .append(", tries ")
                        .append(push.tries())
                        .append(", accepted at +")
                        .append(push.atMillis() - startMillis)
                        .append(" ms");
                out.append("\n    journal: ").append(journalRow(sql, id, startMillis));
                out.append("\n    log:     ").append(journalLog(sql, id));
                out.append("\n    redis:   ").append(redisPlaces(redis, id));
            }
        } catch (SQLException | RuntimeException e) {
            out.append("\n(evidence incomplete: ").append(e).append(')');
        }
        if (lostIds.size() > shown.size()) {
            out.append("\n... and ").append(lostIds.size() - shown.size()).append(" more");
        }
        return out.toString();
    }

    private static String journalRow(Connection sql, String id, long startMillis) throws SQLException {
        try (PreparedStatement query = sql.prepareStatement(
                "SELECT status, due_time, attempts, update_time FROM mykit_delay_queue_job WHERE id = ?")) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return "NO ROW";
                }
                return statusName(row.getInt("status")) + ", due at +" + (row.getLong("due_time") - startMillis)
                        + " ms, attempts " + row.getInt("attempts") + ", updated " + row.getTimestamp("update_time");
            }
        }
    }

    private static String journalLog(Connection sql, String id) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (PreparedStatement query = sql.prepareStatement(
                "SELECT status, thread, host, update_time FROM mykit_delay_queue_job_log WHERE id = "
                        + "? ORDER BY log_id")) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    out.append(statusName(row.getInt("status")))
                            .append('@')
                            .append(row.getTimestamp("update_time"))
                            .append(" [")
                            .append(row.getString("thread"))
                            .append(' ')
                            .append(row.getString("host"))
                            .append("] ");
                }
            }
        }
        return out.isEmpty() ? "NO ROWS" : out.toString();
    }

    private String redisPlaces(Jedis redis, String id) {
        int bucket = Buckets.of(id, keys.buckets());
        String record = redis.hget(keys.pool(bucket), id);
        Double due = redis.zscore(keys.dueSlice(bucket, id), id);
        Double deadline = redis.zscore(keys.inflight(bucket), id);
        Long readyAt = redis.lpos(keys.ready(bucket, topic), id);
        return "bucket " + bucket + ", pool " + (record == null ? "absent" : "present")
                + ", delay " + (due == null ? "-" : String.format("%.0f", due))
                + ", inflight "
                + (deadline == null ? "-" : String.format("%.0f (now %d)", deadline, System.currentTimeMillis()))
                + ", ready list "
                + (readyAt == null ? "-" : "index " + readyAt + " of " + redis.llen(keys.ready(bucket, topic)));
    }

    private static String statusName(int code) {
        return JobStatus.ofCode(code).map(Enum::name).orElse("code " + code);
    }
}
