package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.MykitDelayApplication;
import io.mykit.delay.config.RedisProperties;
import io.mykit.delay.test.support.KeyPrefixCleanup;
import io.mykit.delay.test.support.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A journal URL naming a database the server does not have: without createDatabaseIfNotExist the gateway stops within
 * seconds with one report naming the database and both ways out; with it, the database is created and the gateway runs.
 */
@ExtendWith(OutputCaptureExtension.class)
class MissingJournalDatabaseTest {
    private final String database =
            "mykit_it_missing_" + UUID.randomUUID().toString().substring(0, 8);

    private final String keyPrefix = "it-" + UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void cleanUp() {
        try {
            RedisProperties redis = new RedisProperties();
            redis.setHost(TestServers.redis().host());
            redis.setPort(TestServers.redis().port());
            KeyPrefixCleanup.delete(redis, keyPrefix);
        } finally {
            TestServers.dropDatabase(database);
        }
    }

    /** The test MariaDB with {@code database} in the URL, which nothing has created. */
    private String url(String options) {
        return "jdbc:mysql://" + TestServers.LOCALHOST + ":" + TestServers.mariaDbPort() + "/" + database
                + "?useSSL=false&allowPublicKeyRetrieval=true" + options;
    }

    private ConfigurableApplicationContext start(String url) {
        TestServers.RedisEndpoint redis = TestServers.redis();
        return new SpringApplicationBuilder(MykitDelayApplication.class)
                .run(
                        "--server.port=0",
                        "--mykit.delay.http.warmup=0",
                        "--mykit.delay.redis.host=" + redis.host(),
                        "--mykit.delay.redis.port=" + redis.port(),
                        "--mykit.delay.redis.key-prefix=" + keyPrefix,
                        "--spring.datasource.url=" + url,
                        "--spring.datasource.username=" + TestServers.jdbcUser(),
                        "--spring.datasource.password=" + TestServers.jdbcPassword());
    }

    @Test
    void a_missing_database_stops_the_start_within_seconds_with_one_report_naming_it(CapturedOutput output) {
        long started = System.nanoTime();
        assertThatThrownBy(() -> start(url("")).close()).hasStackTraceContaining("Unknown database '" + database);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("time to give up").isLessThan(Duration.ofSeconds(30));
        String log = output.getAll();
        assertThat(log)
                .contains("APPLICATION FAILED TO START")
                .contains("The journal database '" + database + "' does not exist")
                .contains("CREATE DATABASE `" + database + "`")
                .contains("createDatabaseIfNotExist=true");
        // other tests' threads may log into the same output: only the lines naming this database count
        List<String> naming =
                log.lines().filter(line -> line.contains(database)).toList();
        assertThat(naming).as("lines naming the database").hasSizeLessThanOrEqualTo(3);
        assertThat(naming).as("no stack trace").noneMatch(line -> line.startsWith("Caused by:"));
        assertThat(databaseExists()).isFalse();
    }

    @Test
    void create_database_if_not_exist_creates_it_and_the_gateway_starts() {
        try (ConfigurableApplicationContext context = start(url("&createDatabaseIfNotExist=true"))) {
            assertThat(context.isRunning()).isTrue();
            assertThat(databaseExists()).isTrue();
        }
    }

    private boolean databaseExists() {
        String server = "jdbc:mysql://" + TestServers.LOCALHOST + ":" + TestServers.mariaDbPort()
                + "/?useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection connection =
                        DriverManager.getConnection(server, TestServers.jdbcUser(), TestServers.jdbcPassword());
                ResultSet rows = connection.getMetaData().getCatalogs()) {
            while (rows.next()) {
                if (rows.getString(1).equals(database)) {
                    return true;
                }
            }
            return false;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
