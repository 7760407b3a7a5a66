package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Ids and topics that differ only in case are different jobs and topics in the journal too, as they are in Redis and
 * the brokers: MySQL/MariaDB's default collation is case-insensitive, so the key columns are binary since V4.
 */
class IdCaseTest {
    /** The key columns V4 makes binary: table, column, column type, nullable. */
    private static final List<List<String>> KEY_COLUMNS = List.of(
            List.of("mykit_delay_queue_job", "id", "varchar(128)", "NO"),
            List.of("mykit_delay_queue_job", "topic", "varchar(128)", "YES"),
            List.of("mykit_delay_queue_job", "subtopic", "varchar(250)", "YES"),
            List.of("mykit_delay_queue_job", "bizkey", "varchar(128)", "YES"),
            List.of("mykit_delay_queue_job_log", "id", "varchar(128)", "NO"));

    private static final String INDEXES = "SELECT table_name, index_name, seq_in_index, column_name, non_unique"
            + " FROM information_schema.statistics WHERE table_schema = ? AND table_name LIKE 'mykit_delay_queue_job%'"
            + " ORDER BY table_name, index_name, seq_in_index";
    private static final long DELAY_MS = 1_000;

    @Gateway
    private static TestGateway gateway;

    private static GatewayClient client;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start() {
        client = gateway.client();
        jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
    }

    private static String unique() {
        return UUID.randomUUID().toString();
    }

    private static String pushed(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.success()).as(reply.toString()).isTrue();
        return reply.data().asText();
    }

    /** Reserves jobs of {@code topic} until {@code count} came, finishing none: id -> body. */
    private static Map<String, String> pullBodies(String topic, int count) {
        Map<String, String> bodies = new HashMap<>();
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            Reply reply = client.get(topic, 30_000, 1_000);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            if (!reply.data().isNull()) {
                assertThat(bodies.put(
                                reply.data().path("id").asText(),
                                reply.data().path("body").asText()))
                        .as("reserved twice: " + reply)
                        .isNull();
            }
            return bodies.size() >= count;
        });
        return bodies;
    }

    private static int journalStatus(String id) {
        Integer status =
                jdbc.queryForObject("SELECT status FROM mykit_delay_queue_job WHERE id = ?", Integer.class, id);
        assertThat(status).as("journal status of " + id).isNotNull();
        return status;
    }

    @Test
    void ids_differing_only_in_case_are_two_jobs_from_push_to_finish() throws Exception {
        String topic = "case-" + unique().substring(0, 8);
        String suffix = unique();
        String upper = "Case-" + suffix;
        String lower = "case-" + suffix;

        assertThat(pushed(client.push("{\"topic\":\"" + topic + "\",\"id\":\"" + upper + "\",\"delay\":" + DELAY_MS
                        + ",\"body\":\"upper\"}")))
                .isEqualTo(upper);
        assertThat(pushed(client.push("{\"topic\":\"" + topic + "\",\"id\":\"" + lower + "\",\"delay\":" + DELAY_MS
                        + ",\"body\":\"lower\"}")))
                .isEqualTo(lower);

        Map<String, String> journaled = new HashMap<>();
        jdbc.query(
                "SELECT id, body FROM mykit_delay_queue_job WHERE id IN (?, ?)",
                row -> {
                    journaled.put(row.getString("id"), row.getString("body"));
                },
                upper,
                lower);
        assertThat(journaled).as("both rows in the journal").isEqualTo(Map.of(upper, "upper", lower, "lower"));
        assertThat(client.lookup(lower).data().path("id").asText())
                .as("look-up of the lower-case id")
                .isEqualTo(lower);

        assertThat(pullBodies(topic, 2)).isEqualTo(Map.of(upper, "upper", lower, "lower"));

        assertThat(client.finish(lower).status()).isEqualTo(200);
        assertThat(gateway.journalStatuses(lower)).contains(JobStatus.Finish.code());
        assertThat(gateway.journalStatuses(upper)).as("log of the other job").doesNotContain(JobStatus.Finish.code());
        assertThat(journalStatus(lower)).isEqualTo(JobStatus.Finish.code());
        assertThat(journalStatus(upper)).as("the other job is still unfinished").isNotEqualTo(JobStatus.Finish.code());
        assertThat(client.lookup(upper).data().path("status").asText()).isNotEqualTo("Finish");

        assertThat(client.finish(upper).status()).isEqualTo(200);
        gateway.journalStatuses(upper);
        assertThat(journalStatus(upper)).isEqualTo(JobStatus.Finish.code());
    }

    @Test
    void topics_differing_only_in_case_are_two_topics() {
        String suffix = unique().substring(0, 8);
        String upperTopic = "Orders-" + suffix;
        String lowerTopic = "orders-" + suffix;
        String upperJob =
                pushed(client.push("{\"topic\":\"" + upperTopic + "\",\"delay\":" + DELAY_MS + ",\"body\":\"upper\"}"));
        String lowerJob =
                pushed(client.push("{\"topic\":\"" + lowerTopic + "\",\"delay\":" + DELAY_MS + ",\"body\":\"lower\"}"));

        assertThat(jdbc.queryForList("SELECT id FROM mykit_delay_queue_job WHERE topic = ?", String.class, upperTopic))
                .containsExactly(upperJob);
        assertThat(jdbc.queryForList("SELECT id FROM mykit_delay_queue_job WHERE topic = ?", String.class, lowerTopic))
                .containsExactly(lowerJob);

        assertThat(pullBodies(upperTopic, 1)).isEqualTo(Map.of(upperJob, "upper"));
        assertThat(pullBodies(lowerTopic, 1)).isEqualTo(Map.of(lowerJob, "lower"));
        assertThat(client.finish(upperJob).status()).isEqualTo(200);
        assertThat(client.finish(lowerJob).status()).isEqualTo(200);
    }

    @Test
    void migration_makes_the_key_columns_of_an_existing_v3_journal_binary() throws Exception {
        String database = "mykit_it_case_" + unique().substring(0, 8);
        String url = TestServers.jdbcUrl(database);
        try {
            DriverManagerDataSource v3 =
                    new DriverManagerDataSource(url, TestServers.jdbcUser(), TestServers.jdbcPassword());
            // the journal as an install before V4 left it, with a pending job in it
            Flyway.configure()
                    .dataSource(v3)
                    .locations("classpath:db/migration")
                    .target("3")
                    .load()
                    .migrate();
            JdbcTemplate before = new JdbcTemplate(v3);
            for (List<String> column : KEY_COLUMNS) {
                assertThat(collation(before, database, column))
                        .as("precondition: " + column + " case-insensitive")
                        .endsWith("_ci");
            }
            List<Map<String, Object>> indexes = before.queryForList(INDEXES, database);
            String legacy = "Legacy-" + unique();
            long dueTime = System.currentTimeMillis() + Duration.ofHours(1).toMillis();
            before.update(
                    "INSERT INTO mykit_delay_queue_job (id, bizkey, topic, subtopic, delay, priority, ttl, tries,"
                            + " attempts, create_time, due_time, body, status, update_time)"
                            + " VALUES (?, 'Biz-1', 'legacy', NULL, 3600000, 0, 0, 16, 0, ?, ?, 'kept', 1, NOW(3))",
                    legacy,
                    dueTime - 3_600_000,
                    dueTime);

            try (TestGateway migrated = TestGateway.start("spring.datasource.url=" + url)) {
                JdbcTemplate after = new JdbcTemplate(migrated.bean(DataSource.class));
                assertThat(after.queryForObject("SELECT DATABASE()", String.class))
                        .isEqualTo(database);
                for (List<String> column : KEY_COLUMNS) {
                    Map<String, Object> info = after.queryForMap(
                            "SELECT collation_name, column_type, is_nullable"
                                    + " FROM information_schema.columns WHERE table_schema = ? AND "
                                    + "table_name = ? AND column_name = ?",
                            database,
                            column.get(0),
                            column.get(1));
                    assertThat(info.get("collation_name")).as(column.toString()).isEqualTo("utf8mb4_bin");
                    assertThat(info.get("column_type")).as(column.toString()).isEqualTo(column.get(2));
                    assertThat(info.get("is_nullable")).as(column.toString()).isEqualTo(column.get(3));
                }
                // V4 keeps every key and index; V5 only adds the bizKey index, V6 the retention purge's, V7 drops
                // (status, id)
                assertThat(after.queryForList(INDEXES, database).stream()
                                .filter(row -> !"mykit_delay_queue_job_BIZKEY_TOPIC_ID".equals(row.get("index_name")))
                                .filter(row -> !"mykit_delay_queue_job_STATUS_UPDATED".equals(row.get("index_name")))
                                .toList())
                        .as("primary keys and indexes")
                        .isEqualTo(indexes.stream()
                                .filter(row -> !"mykit_delay_queue_job_STATUS_ID".equals(row.get("index_name")))
                                .toList());
                assertThat(after.queryForObject(
                                "SELECT MAX(CAST(version AS UNSIGNED)) FROM flyway_schema_history"
                                        + " WHERE success = 1",
                                Integer.class))
                        .isEqualTo(9);

                GatewayClient gatewayClient = migrated.client();
                Reply kept = gatewayClient.lookup(legacy);
                assertThat(kept.data().path("body").asText())
                        .as(kept.toString())
                        .isEqualTo("kept");
                assertThat(kept.data().path("bizKey").asText()).isEqualTo("Biz-1");
                String twin = "legacy-" + legacy.substring("Legacy-".length());
                assertThat(pushed(gatewayClient.push(
                                "{\"topic\":\"legacy\",\"id\":\"" + twin + "\",\"delay\":3600000,\"body\":\"new\"}")))
                        .isEqualTo(twin);
                assertThat(after.queryForList(
                                "SELECT body FROM mykit_delay_queue_job WHERE id IN (?, ?) ORDER BY body",
                                String.class,
                                legacy,
                                twin))
                        .containsExactly("kept", "new");
            }
        } finally {
            TestServers.dropDatabase(database);
        }
    }

    private static String collation(JdbcTemplate jdbc, String database, List<String> column) {
        return jdbc.queryForObject(
                "SELECT collation_name FROM information_schema.columns"
                        + " WHERE table_schema = ? AND table_name = ? AND column_name = ?",
                String.class,
                database,
                column.get(0),
                column.get(1));
    }

    @Test
    void migrations_run_on_the_embedded_h2_journal_and_keep_case() {
        // the embedded journal's mode (EmbeddedStoresPostProcessor), in memory
        String url = "jdbc:h2:mem:idcase-" + unique() + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE";
        SingleConnectionDataSource h2 = new SingleConnectionDataSource(url, "sa", "", true);
        try {
            MigrateResult result = Flyway.configure()
                    .dataSource(h2)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
            assertThat(result.targetSchemaVersion).isEqualTo("9");
            JdbcTemplate jdbc = new JdbcTemplate(h2);
            jdbc.update("INSERT IGNORE INTO mykit_delay_queue_job (id, topic, body) VALUES ('Order-1', 'Orders', 'a')");
            jdbc.update("INSERT IGNORE INTO mykit_delay_queue_job (id, topic, body) VALUES ('order-1', 'orders', 'b')");
            assertThat(jdbc.queryForList("SELECT id FROM mykit_delay_queue_job WHERE id = 'order-1'", String.class))
                    .containsExactly("order-1");
            assertThat(jdbc.queryForList("SELECT body FROM mykit_delay_queue_job WHERE topic = 'Orders'", String.class))
                    .containsExactly("a");
            assertThat(jdbc.queryForList(
                            "SELECT column_name FROM information_schema.columns WHERE table_name"
                                    + " = 'mykit_delay_queue_job' ORDER BY ordinal_position",
                            String.class))
                    .as("column order")
                    .startsWith("id", "bizkey", "topic", "subtopic", "delay");
            assertThat(jdbc.queryForList(
                            "SELECT DISTINCT index_name || ':' || column_name FROM information_schema.index_columns"
                                    + " WHERE table_name LIKE 'mykit_delay_queue_job%' AND "
                                    + "LOWER(index_name) NOT LIKE 'primary_key%'",
                            String.class))
                    .containsExactlyInAnyOrder(
                            "mykit_delay_queue_job_topic_status:topic",
                            "mykit_delay_queue_job_topic_status:status",
                            "mykit_delay_queue_job_topic_status:id",
                            "mykit_delay_queue_job_log_id_status:id",
                            "mykit_delay_queue_job_log_id_status:status",
                            "mykit_delay_queue_job_bizkey_topic_id:bizkey",
                            "mykit_delay_queue_job_bizkey_topic_id:topic",
                            "mykit_delay_queue_job_bizkey_topic_id:id",
                            "mykit_delay_queue_job_status_updated:status",
                            "mykit_delay_queue_job_status_updated:update_time");
            assertThat(jdbc.queryForList(
                            "SELECT table_name || ':' || column_name FROM information_schema.index_columns"
                                    + " WHERE table_name LIKE 'mykit_delay_queue_job%' AND "
                                    + "LOWER(index_name) LIKE 'primary_key%'",
                            String.class))
                    .containsExactlyInAnyOrder("mykit_delay_queue_job:id", "mykit_delay_queue_job_log:log_id");
        } finally {
            h2.destroy();
        }
    }
}
