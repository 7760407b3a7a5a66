package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A user of the original mykit-delay points the gateway at the database the original wrote: its two tables (created
 * from the original's own script), pending, finished and deleted rows, no Flyway history. The gateway must upgrade the
 * tables in place, then deliver every pending row at its time and never an ended one, with nothing else to run.
 */
class OriginalDatabaseMigrationTest {
    private static final String TOPIC = "orig-orders";
    /** The original's pending codes: WaitPut, Delay, Ready, Restore, ConsumerFailRestore. */
    private static final int[] PENDING = {0, 1, 2, 5, 6};

    private static final int[] ENDED = {3, 4};

    private record Row(String id, long createTime, long delay, int status) {
        long due() {
            return createTime + delay;
        }
    }

    @Test
    void the_originals_tables_are_upgraded_in_place_and_every_pending_row_arrives_at_its_time_and_no_ended_one()
            throws Exception {
        String database = "mykit_orig_" + UUID.randomUUID().toString().substring(0, 8);
        String url = TestServers.jdbcUrl(database);
        long now = System.currentTimeMillis();
        List<Row> pending = new ArrayList<>();
        List<Row> ended = new ArrayList<>();
        try {
            try (Connection c = connect(url)) {
                OriginalFixtures.createOriginalTables(c);
                for (int i = 0; i < PENDING.length; i++) {
                    // pushed a while ago; due 16-19 s from now (after the gateway started), one already overdue
                    long created = now - 10_000;
                    long delay = i == 0 ? 5_000 : 25_000 + i * 1_000L;
                    pending.add(insertAsTheOriginalDid(c, created, delay, PENDING[i]));
                }
                for (int code : ENDED) {
                    ended.add(insertAsTheOriginalDid(c, now - 10_000, 27_000, code));
                    // ended long ago and due long ago: a restore that took them for pending would hand them over at
                    // once
                    ended.add(insertAsTheOriginalDid(c, now - 60_000, 1_000, code));
                }
            }

            Map<String, Long> arrivals = new LinkedHashMap<>();
            try (TestGateway gateway = TestGateway.start("spring.datasource.url=" + url)) {
                GatewayClient client = gateway.client();
                long lastDue = pending.stream().mapToLong(Row::due).max().orElseThrow();
                // past the last due time, and then long enough for an ended job to show up if it were restored
                long until = Math.max(lastDue, System.currentTimeMillis()) + 4_000;
                while (System.currentTimeMillis() < until) {
                    GatewayClient.Reply reply = client.get(TOPIC, 30_000, 1_000);
                    JsonNode data = reply.data();
                    if (reply.status() == 200 && data.hasNonNull("id")) {
                        String id = data.get("id").asText();
                        arrivals.merge(id, System.currentTimeMillis(), Math::min);
                        assertThat(client.finish(id).status()).isEqualTo(200);
                    }
                }
                assertSchemaUpgraded(url);
                assertThat(gateway.journalStatuses(pending.get(1).id()))
                        .as("journal history of a migrated job")
                        .startsWith(0, 1)
                        .contains(2, 3);
                assertThat(client.lookup(pending.get(1).id())
                                .data()
                                .path("status")
                                .asText())
                        .isEqualTo("Finish");
            }
            List<String> migrated = historyVersions(url);

            Map<String, Row> byId = new HashMap<>();
            pending.forEach(row -> byId.put(row.id(), row));
            assertThat(arrivals.keySet()).as("delivered ids").containsExactlyInAnyOrderElementsOf(byId.keySet());
            for (Map.Entry<String, Long> arrival : arrivals.entrySet()) {
                Row row = byId.get(arrival.getKey());
                // the migrated due time is the original's create_time + delay: never early
                assertThat(arrival.getValue())
                        .as("arrival of %s (status %d), due %d", row.id(), row.status(), row.due())
                        .isGreaterThanOrEqualTo(row.due());
            }
            assertThat(ended).allSatisfy(row -> assertThat(arrivals).doesNotContainKey(row.id()));

            // a second start on the upgraded database changes nothing and migrates nothing again
            try (TestGateway again = TestGateway.start("spring.datasource.url=" + url)) {
                assertThat(again.client().get(TOPIC, 30_000, 1_500).data().hasNonNull("id"))
                        .as("a job delivered again after a restart on the upgraded database")
                        .isFalse();
                assertThat(historyVersions(url)).isEqualTo(migrated);
            }
        } finally {
            TestServers.dropDatabase(database);
        }
    }

    @Test
    void an_upgrade_that_died_half_way_is_finished_by_the_next_start() throws Exception {
        String database = "mykit_orig_" + UUID.randomUUID().toString().substring(0, 8);
        String url = TestServers.jdbcUrl(database);
        try {
            Row row;
            try (Connection c = connect(url)) {
                OriginalFixtures.createOriginalTables(c);
                row = insertAsTheOriginalDid(c, System.currentTimeMillis() - 1_000, 3_000, 1);
                try (Statement s = c.createStatement()) {
                    // the first statements of an earlier start went through, then it died
                    s.execute("ALTER TABLE mykit_delay_queue_job CONVERT TO CHARACTER SET utf8mb4");
                    s.execute("ALTER TABLE mykit_delay_queue_job ADD COLUMN priority INT DEFAULT 0 AFTER delay,"
                            + " ADD COLUMN due_time BIGINT DEFAULT NULL AFTER create_time");
                }
            }
            try (TestGateway gateway = TestGateway.start("spring.datasource.url=" + url)) {
                GatewayClient.Reply reply = gateway.client().get(TOPIC, 30_000, 30_000);
                assertThat(reply.data().path("id").asText())
                        .as("the pending row delivered: %s", reply)
                        .isEqualTo(row.id());
                assertSchemaUpgraded(url);
            }
        } finally {
            TestServers.dropDatabase(database);
        }
    }

    private static Row insertAsTheOriginalDid(Connection c, long createTime, long delay, int status)
            throws SQLException {
        String id = UUID.randomUUID().toString().replace("-", "");
        try (PreparedStatement job = c.prepareStatement("INSERT INTO mykit_delay_queue_job"
                        + " (id, bizkey, topic, subtopic, delay, create_time, body, status, ttl, update_time)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
                PreparedStatement log = c.prepareStatement("INSERT INTO mykit_delay_queue_job_log"
                        + " (id, status, thread, update_time, host) VALUES (?, ?, ?, ?, ?)")) {
            job.setString(1, id);
            job.setString(2, "order-" + id.substring(0, 6));
            job.setString(3, TOPIC);
            job.setString(4, "close");
            job.setLong(5, delay);
            job.setLong(6, createTime);
            job.setString(7, "{\"orderId\":\"" + id + "\"}");
            job.setInt(8, status);
            job.setInt(9, 0);
            job.setTimestamp(10, new Timestamp(createTime));
            job.executeUpdate();
            // the original logged each state it went through
            for (int code : status <= 1 ? new int[] {0, status} : new int[] {0, 1, status}) {
                log.setString(1, id);
                log.setInt(2, code);
                log.setString(3, "pool-1-thread-1");
                log.setTimestamp(4, new Timestamp(createTime));
                log.setString(5, "10.0.0.7");
                log.executeUpdate();
            }
        }
        return new Row(id, createTime, delay, status);
    }

    private static void assertSchemaUpgraded(String url) throws SQLException {
        try (Connection c = connect(url);
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM mykit_delay_queue_job"
                    + " WHERE due_time IS NULL OR due_time <> create_time + delay OR tries "
                    + "IS NULL OR priority IS NULL")) {
                rs.next();
                assertThat(rs.getLong(1))
                        .as("rows without a back-filled due time, tries or priority")
                        .isZero();
            }
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM mykit_delay_queue_job_log WHERE log_id IS NULL")) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
            try (ResultSet rs = s.executeQuery("SELECT TABLE_COLLATION FROM information_schema.TABLES"
                    + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'mykit_delay_queue_job'")) {
                rs.next();
                assertThat(rs.getString(1)).startsWith("utf8mb4");
            }
        }
        assertThat(historyVersions(url))
                .as("Flyway history: baseline 1, then the later migrations")
                .startsWith("1", "2", "3", "4");
    }

    private static List<String> historyVersions(String url) throws SQLException {
        List<String> versions = new ArrayList<>();
        try (Connection c = connect(url);
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT version, success FROM flyway_schema_history ORDER BY installed_rank")) {
            while (rs.next()) {
                assertThat(rs.getBoolean(2))
                        .as("migration %s succeeded", rs.getString(1))
                        .isTrue();
                versions.add(rs.getString(1));
            }
        }
        return versions;
    }

    private static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, TestServers.jdbcUser(), TestServers.jdbcPassword());
    }
}
