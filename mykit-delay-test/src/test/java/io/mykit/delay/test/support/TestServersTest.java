package io.mykit.delay.test.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.core.embedded.RedisProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** TestServers hands out servers that really answer, whichever fallback this machine ends up using. */
class TestServersTest {

    private static final String DATABASE = "mykit_test_support";

    @Test
    void redis_answers_ping_and_keeps_a_value() throws IOException {
        TestServers.RedisEndpoint redis = TestServers.redis();
        String key = "mykit-test-support:" + UUID.randomUUID();

        assertThat(command(redis.host(), redis.port(), "PING"))
                .as(redis.origin())
                .isEqualTo("+PONG");
        assertThat(command(redis.host(), redis.port(), "SET", key, "v", "PX", "60000"))
                .isEqualTo("+OK");
        assertThat(command(redis.host(), redis.port(), "GET", key)).isEqualTo("v");
        command(redis.host(), redis.port(), "DEL", key);
    }

    @Test
    void redis_is_the_same_server_for_the_whole_jvm() {
        assertThat(TestServers.redis()).isSameAs(TestServers.redis());
    }

    @Test
    void jdbc_url_connects_to_the_database_it_names() throws Exception {
        String url = TestServers.jdbcUrl(DATABASE);

        try (Connection connection =
                        DriverManager.getConnection(url, TestServers.jdbcUser(), TestServers.jdbcPassword());
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT DATABASE(), VERSION()")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString(1)).isEqualTo(DATABASE);
            assertThat(row.getString(2)).as(TestServers.mariaDbOrigin()).containsIgnoringCase("mariadb");
        }
        assertThat(url).contains("useSSL=false", "allowPublicKeyRetrieval=true", "rewriteBatchedStatements=true");
    }

    @Test
    void free_port_can_be_bound() throws IOException {
        int port = TestServers.freePort();

        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(TestServers.LOCALHOST, port));
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void own_redis_stops_dies_and_restarts_on_the_same_port() throws IOException {
        try (OwnRedis redis = TestServers.startOwnRedis()) {
            int port = redis.port();
            assertThat(RedisProcess.answersPing(redis.host(), port)).isTrue();
            assertThat(command(redis.host(), port, "SET", "k", "before-kill")).isEqualTo("+OK");

            redis.kill();
            assertThat(redis.isAlive()).isFalse();
            assertThat(RedisProcess.answersPing(redis.host(), port)).isFalse();

            redis.restart();
            assertThat(redis.port()).isEqualTo(port);
            assertThat(command(redis.host(), port, "GET", "k"))
                    .as("no persistence by default")
                    .isEqualTo("(nil)");

            redis.stop();
            assertThat(RedisProcess.answersPing(redis.host(), port)).isFalse();
            redis.restart();
            assertThat(RedisProcess.answersPing(redis.host(), port)).isTrue();
        }
    }

    @Test
    void own_redis_with_append_only_keeps_data_across_a_graceful_restart() throws IOException {
        try (OwnRedis redis = TestServers.startOwnRedis("appendonly yes", "appendfsync always")) {
            command(redis.host(), redis.port(), "SET", "k", "kept");

            redis.stop();
            redis.restart();

            assertThat(command(redis.host(), redis.port(), "GET", "k")).isEqualTo("kept");
        }
    }

    // One RESP command; answers a status or error line as is, a bulk string as its text, a null bulk as "(nil)".
    private static String command(String host, int port, String... args) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(5000);
            StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$')
                        .append(arg.getBytes(StandardCharsets.UTF_8).length)
                        .append("\r\n")
                        .append(arg)
                        .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String line = in.readLine();
            if (line.startsWith("$")) {
                return line.equals("$-1") ? "(nil)" : in.readLine();
            }
            return line;
        }
    }
}
