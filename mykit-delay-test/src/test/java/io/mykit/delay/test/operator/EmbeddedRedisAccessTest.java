package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.MykitDelayApplication;
import io.mykit.delay.core.embedded.RedisProcess;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The embedded Redis takes no client without its password (a new random one each start) and listens on 127.0.0.1 alone;
 * neither its port nor where it is shows in /actuator/info or /actuator/prometheus to anyone but the admin.
 */
class EmbeddedRedisAccessTest {
    private static final String ADMIN = "embedded-admin-token";

    @Test
    void the_embedded_redis_wants_its_password_listens_on_loopback_only_and_its_port_stays_the_admins(@TempDir Path tmp)
            throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(MykitDelayApplication.class)
                .run(
                        "--server.port=0",
                        "--mykit.delay.embedded.data-dir=" + tmp,
                        "--mykit.delay.admin.token=" + ADMIN)) {
            int port = context.getEnvironment().getRequiredProperty("mykit.delay.redis.port", Integer.class);
            String password = context.getEnvironment().getRequiredProperty("mykit.delay.redis.password");

            assertThat(RedisProcess.answers(RedisProcess.HOST, port))
                    .as("a Redis listens")
                    .isTrue();
            assertThat(RedisProcess.answersPing(RedisProcess.HOST, port))
                    .as("no command without the password")
                    .isFalse();
            assertThat(RedisProcess.answersPing(RedisProcess.HOST, port, "guessed"))
                    .isFalse();
            assertThat(RedisProcess.answersPing(RedisProcess.HOST, port, password))
                    .isTrue();
            assertThat(password).hasSizeGreaterThanOrEqualTo(32);
            assertThatThrownBy(() -> connect("127.0.0.2", port))
                    .as("bound to 127.0.0.1, not to every address")
                    .isInstanceOf(ConnectException.class);
            Path conf = tmp.resolve("redis").resolve("redis.conf");
            assertThat(Files.readString(conf)).contains("bind 127.0.0.1");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(conf)))
                    .isEqualTo("rw-------");

            String base = "http://127.0.0.1:"
                    + ((WebServerApplicationContext) context).getWebServer().getPort();
            assertThat(get(base, "/actuator/info", null))
                    .contains("\"embedded\":true")
                    .doesNotContain(Integer.toString(port));
            assertThat(get(base, "/actuator/prometheus", null))
                    .doesNotContain(":" + port)
                    .doesNotContain(password);
            assertThat(get(base, "/actuator/info", ADMIN))
                    .contains("127.0.0.1:" + port)
                    .doesNotContain(password);
        }
    }

    private static String get(String base, String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response =
                HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private static void connect(String host, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1_000);
        }
    }
}
