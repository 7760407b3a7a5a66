package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.MykitDelayApplication;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.support.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A node with one store configured and the other not refuses to start, naming the missing setting, instead of quietly
 * running the other store embedded under ./data (a half-configured production node would journal into a local file).
 */
class EmbeddedStoresSafetyTest {
    private static final String HALF =
            "mykit_it_half_" + java.util.UUID.randomUUID().toString().substring(0, 8);
    private static final String HALF_OFF = HALF + "_off";

    private static void start(Path dataDir, String... settings) {
        String[] args = new String[settings.length + 2];
        args[0] = "--server.port=0";
        args[1] = "--mykit.delay.embedded.data-dir=" + dataDir;
        System.arraycopy(settings, 0, args, 2, settings.length);
        new SpringApplicationBuilder(MykitDelayApplication.class).run(args).close();
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void embedded_stores_are_announced_once_at_warn_and_shown_in_info(@TempDir Path tmp, CapturedOutput output) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(MykitDelayApplication.class)
                .run("--server.port=0", "--mykit.delay.embedded.data-dir=" + tmp)) {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            JsonNode stores = new GatewayClient("http://127.0.0.1:" + port)
                    .get("/actuator/info")
                    .json()
                    .path("gateway")
                    .path("stores");
            assertThat(stores.path("redis").path("embedded").asBoolean()).isTrue();
            assertThat(stores.path("journal").path("embedded").asBoolean()).isTrue();
            assertThat(stores.path("journal").path("url").asText())
                    .startsWith("jdbc:h2:file:")
                    .doesNotContain(";");
        }
        List<String> warnings = output.getAll()
                .lines()
                .filter(line -> line.contains("EMBEDDED STORES IN USE"))
                .toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0))
                .contains("WARN")
                .contains("not for production")
                .contains("mykit.delay.embedded.enabled=false");
    }

    @Test
    void redis_without_a_journal_database_refuses_to_start_naming_spring_datasource_url(@TempDir Path tmp) {
        Path dataDir = tmp.resolve("data");
        TestServers.RedisEndpoint redis = TestServers.redis();
        assertThatThrownBy(() -> start(
                        dataDir,
                        "--mykit.delay.redis.host=" + redis.host(),
                        "--mykit.delay.redis.port=" + redis.port()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mykit.delay.redis.host (or mykit.delay.redis.cluster-nodes) is set")
                .hasMessageContaining("but spring.datasource.url is not")
                .hasMessageContaining("mykit.delay.embedded.enabled=false");
        assertThat(Files.exists(dataDir)).as("nothing embedded was started").isFalse();
    }

    @Test
    void a_journal_database_without_redis_refuses_to_start_naming_the_redis_host(@TempDir Path tmp) {
        Path dataDir = tmp.resolve("data");
        assertThatThrownBy(() -> start(
                        dataDir,
                        "--spring.datasource.url=" + TestServers.jdbcUrl(HALF),
                        "--spring.datasource.username=" + TestServers.jdbcUser(),
                        "--spring.datasource.password=" + TestServers.jdbcPassword()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spring.datasource.url is set but mykit.delay.redis.host")
                .hasMessageContaining("Set mykit.delay.redis.host");
        assertThat(Files.exists(dataDir)).as("nothing embedded was started").isFalse();
        TestServers.dropDatabase(HALF);
    }

    @Test
    void with_embedded_stores_off_a_missing_redis_host_is_named_too(@TempDir Path tmp) {
        assertThatThrownBy(() -> start(
                        tmp,
                        "--mykit.delay.embedded.enabled=false",
                        "--spring.datasource.url=" + TestServers.jdbcUrl(HALF_OFF),
                        "--spring.datasource.username=" + TestServers.jdbcUser(),
                        "--spring.datasource.password=" + TestServers.jdbcPassword()))
                .hasStackTraceContaining("mykit.delay.redis.host must be set");
        TestServers.dropDatabase(HALF_OFF);
    }

    @Test
    void a_datasource_setting_without_its_url_or_a_redis_timeout_alone_starts_no_embedded_store(@TempDir Path tmp) {
        Path dataDir = tmp.resolve("data");
        assertThatThrownBy(() -> start(dataDir, "--spring.datasource.username=root"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spring.datasource.username set but spring.datasource.url is not");
        assertThat(Files.exists(dataDir)).as("nothing embedded was started").isFalse();
        // the original's spring.redis.timeout alone means Spring's localhost Redis: the journal is then missing
        assertThatThrownBy(() -> start(dataDir, "--spring.redis.timeout=60000"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("but spring.datasource.url is not");
        assertThat(Files.exists(dataDir)).as("nothing embedded was started").isFalse();
    }
}
