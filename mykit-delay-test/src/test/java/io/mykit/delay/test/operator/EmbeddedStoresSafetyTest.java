package io.mykit.delay.test.operator;

import io.mykit.delay.MykitDelayApplication;
import io.mykit.delay.test.support.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node with one store configured and the other not refuses to start, naming the missing setting, instead of quietly
 * running the other store embedded under ./data (a half-configured production node would journal into a local file).
 */
class EmbeddedStoresSafetyTest {
    private static final String HALF = "mykit_it_half_" + java.util.UUID.randomUUID().toString().substring(0, 8);
    private static final String HALF_OFF = HALF + "_off";

    private static void start(Path dataDir, String... settings) {
        String[] args = new String[settings.length + 2];
        args[0] = "--server.port=0";
        args[1] = "--mykit.delay.embedded.data-dir=" + dataDir;
        System.arraycopy(settings, 0, args, 2, settings.length);
        new SpringApplicationBuilder(MykitDelayApplication.class).run(args).close();
    }

    @Test
    void redis_without_a_journal_database_refuses_to_start_naming_spring_datasource_url(@TempDir Path tmp) {
        Path dataDir = tmp.resolve("data");
        TestServers.RedisEndpoint redis = TestServers.redis();
        assertThatThrownBy(() -> start(dataDir, "--mykit.delay.redis.host=" + redis.host(),
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
        assertThatThrownBy(() -> start(dataDir, "--spring.datasource.url=" + TestServers.jdbcUrl(HALF),
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
        assertThatThrownBy(() -> start(tmp, "--mykit.delay.embedded.enabled=false",
                "--spring.datasource.url=" + TestServers.jdbcUrl(HALF_OFF),
                "--spring.datasource.username=" + TestServers.jdbcUser(),
                "--spring.datasource.password=" + TestServers.jdbcPassword()))
                .hasStackTraceContaining("mykit.delay.redis.host must be set");
        TestServers.dropDatabase(HALF_OFF);
    }
}
