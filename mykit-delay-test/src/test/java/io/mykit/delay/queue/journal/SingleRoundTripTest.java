package io.mykit.delay.queue.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.mykit.delay.core.JdbcUrlDefaults;
import io.mykit.delay.test.support.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A journal transaction sent as one multi-statement round trip, on the real MariaDB: all of it or nothing, and a
 * failure leaves the pooled connection out of any transaction (one connection in the pool, so the next call gets it).
 */
class SingleRoundTripTest {
    private final String database =
            "mykit_it_round_trip_" + UUID.randomUUID().toString().substring(0, 8);
    private HikariDataSource pool;
    private JdbcTemplate jdbc;
    private String url;

    @BeforeEach
    void setUp() {
        url = JdbcUrlDefaults.apply(TestServers.jdbcUrl(database), new Properties());
        pool = pool(url);
        jdbc = new JdbcTemplate(pool);
        jdbc.execute("CREATE TABLE t (id VARCHAR(20) PRIMARY KEY, v INT)");
    }

    @AfterEach
    void tearDown() {
        pool.close();
        TestServers.dropDatabase(database);
    }

    @Test
    void the_statements_commit_together() {
        assertThat(SingleRoundTrip.works(jdbc)).isTrue();
        SingleRoundTrip.run(
                jdbc,
                List.of(
                        insert("a", 1),
                        insert("b", 2),
                        new MultiRowInsert.Sql("UPDATE t SET v = v + ? WHERE id = ?", args(10, "a"))),
                0);

        assertThat(seenFromAnotherConnection()).containsExactly("a=11", "b=2");
    }

    @Test
    void a_failing_statement_takes_back_the_ones_before_it_and_leaves_the_connection_out_of_the_transaction() {
        jdbc.update("INSERT INTO t VALUES ('taken', 0)");

        assertThatThrownBy(() -> SingleRoundTrip.run(
                        jdbc, List.of(insert("first", 1), insert("taken", 2), insert("after", 3)), 0))
                .isInstanceOf(DataAccessException.class)
                .hasMessageContaining("Duplicate");
        // the same (only) connection: were the failed transaction still open, this row would stay in it, unseen
        jdbc.update("INSERT INTO t VALUES ('next', 4)");

        assertThat(seenFromAnotherConnection()).containsExactly("next=4", "taken=0");
    }

    @Test
    void a_connection_without_multi_statements_is_told_apart() {
        try (HikariDataSource single = pool(url.replace("allowMultiQueries=true", "allowMultiQueries=false"))) {
            assertThat(SingleRoundTrip.works(new JdbcTemplate(single))).isFalse();
        }
    }

    private static HikariDataSource pool(String url) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        pool.setUsername(TestServers.jdbcUser());
        pool.setPassword(TestServers.jdbcPassword());
        pool.setMaximumPoolSize(1);
        return pool;
    }

    private static MultiRowInsert.Sql insert(String id, int v) {
        return new MultiRowInsert.Sql("INSERT INTO t (id, v) VALUES (?, ?)", args(id, v));
    }

    private static List<Object> args(Object... values) {
        return new ArrayList<>(List.of(values));
    }

    private List<String> seenFromAnotherConnection() {
        List<String> rows = new ArrayList<>();
        try (Connection other = DriverManager.getConnection(url, TestServers.jdbcUser(), TestServers.jdbcPassword());
                Statement query = other.createStatement();
                ResultSet result = query.executeQuery("SELECT id, v FROM t ORDER BY id")) {
            while (result.next()) {
                rows.add(result.getString(1) + "=" + result.getInt(2));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }
}
