package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.core.compat.OriginalSettings;
import io.mykit.delay.core.compat.OriginalSettingsPostProcessor;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;

/** The original's shipped files, read the way the gateway reads its own settings: what each key becomes. */
class OriginalSettingsTest {

    @Test
    void the_originals_application_yml_gives_its_redis_cluster_bucket_count_and_a_usable_pool_and_logging()
            throws Exception {
        StandardEnvironment environment = environmentWith(Map.of());
        run(environment);
        Binder binder = Binder.get(environment);
        assertThat(binder.bind("mykit.delay.redis.cluster-nodes", String.class).get())
                .isEqualTo("10.31.5.65:7001,10.31.5.65:7002,10.31.5.65:7003,10.31.5.65:7004,"
                        + "10.31.5.65:7005,10.31.5.65:7006");
        assertThat(binder.bind("mykit.delay.redis.host", String.class).isBound())
                .as("no single Redis host")
                .isFalse();
        assertThat(binder.bind("mykit.delay.buckets", Integer.class).get()).isEqualTo(4);
        assertThat(binder.bind("mykit.delay.mode", String.class).isBound())
                .as("registry.enable is false")
                .isFalse();
        assertThat(environment.getProperty("spring.datasource.type")).isEqualTo("com.zaxxer.hikari.HikariDataSource");
        assertThat(environment.getProperty("logging.config"))
                .as("the ${soft.home} logback file")
                .isEmpty();
        assertThat(environment.getProperty("server.port"))
                .as("the original's port")
                .isEqualTo("6355");
        // its own names still bind where this gateway reads them
        assertThat(binder.bind("mykit.delay.activemq.broker-url", String.class).get())
                .isEqualTo("failover:(tcp://127.0.0.1:61616)");
        assertThat(binder.bind("mykit.delay.rocketmq.namesrv-addr", String.class)
                        .get())
                .isEqualTo("127.0.0.1:9876");
        assertThat(binder.bind("mykit.delay.registry.server-list", String.class).get())
                .isEqualTo("127.0.0.1:2181");
    }

    @Test
    void this_gateways_own_names_win_over_the_originals() throws Exception {
        StandardEnvironment environment = environmentWith(Map.of(
                "mykit.delay.redis.host",
                "redis.internal",
                "mykit.delay.buckets",
                "32",
                "mykit.delay.dispatch.default-target",
                "pull",
                "default.cq",
                "rocketmqCQ"));
        run(environment);
        Binder binder = Binder.get(environment);
        assertThat(binder.bind("mykit.delay.redis.host", String.class).get()).isEqualTo("redis.internal");
        assertThat(binder.bind("mykit.delay.redis.cluster-nodes", String.class).isBound())
                .isFalse();
        assertThat(binder.bind("mykit.delay.buckets", Integer.class).get()).isEqualTo(32);
        assertThat(environment.getProperty("mykit.delay.dispatch.default-target"))
                .isEqualTo("pull");
    }

    @Test
    void the_shipped_starter_properties_send_due_jobs_to_the_log_as_the_originals_console_queue_did() {
        Properties starter = new Properties();
        try {
            starter.load(new StringReader(OriginalFixtures.text("starter.properties")));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Map<String, String> values = new HashMap<>();
        starter.stringPropertyNames().forEach(name -> values.put(name, starter.getProperty(name)));
        OriginalSettings.Result result = translate(
                Map.of(),
                Optional.of(
                        new OriginalSettings.Located("class path resource [properties/starter.properties]", values)));
        assertThat(result.translated()).containsEntry("mykit.delay.dispatch.default-target", "log");
        assertThat(result.notes())
                .anyMatch(note ->
                        note.contains("default.cq=consoleCQ") && note.contains("properties/starter.properties"));
    }

    @Test
    void the_system_property_beats_default_cq_and_each_queue_name_maps_to_its_target() {
        assertThat(translate(
                                Map.of(
                                        "io.mykit.delay.queue.core.ConsumeQueueProvider",
                                        "rocketmqCQ",
                                        "default.cq",
                                        "activemqCQ"),
                                Optional.empty())
                        .translated())
                .containsEntry("mykit.delay.dispatch.default-target", "rocketmq");
        assertThat(translate(Map.of("default.cq", "activemqCQ"), Optional.empty())
                        .translated())
                .containsEntry("mykit.delay.dispatch.default-target", "activemq");
        assertThat(translate(Map.of(), Optional.empty()).translated())
                .doesNotContainKey("mykit.delay.dispatch.default-target");
        assertThatThrownBy(() -> translate(Map.of("default.cq", "kafkaCQ"), Optional.empty()))
                .hasMessageContaining("default.cq=kafkaCQ")
                .hasMessageContaining("mykit.delay.dispatch.default-target");
    }

    @Test
    void spring_data_redis_then_spring_redis_give_a_single_redis_and_a_port_alone_means_localhost() {
        assertThat(translate(
                                Map.of(
                                        "spring.data.redis.host",
                                        "cache-1",
                                        "spring.data.redis.port",
                                        "6380",
                                        "spring.redis.host",
                                        "old-cache",
                                        "spring.redis.database",
                                        "11"),
                                Optional.empty())
                        .translated())
                .containsEntry("mykit.delay.redis.host", "cache-1")
                .containsEntry("mykit.delay.redis.port", "6380")
                .doesNotContainKey("mykit.delay.redis.database");
        assertThat(translate(
                                Map.of(
                                        "spring.redis.port",
                                        "6390",
                                        "spring.redis.password",
                                        "s3cret",
                                        "spring.redis.database",
                                        "11"),
                                Optional.empty())
                        .translated())
                .containsEntry("mykit.delay.redis.host", "localhost")
                .containsEntry("mykit.delay.redis.port", "6390")
                .containsEntry("mykit.delay.redis.password", "s3cret")
                .containsEntry("mykit.delay.redis.database", "11");
        assertThat(translate(Map.of("spring.redis.timeout", "60000"), Optional.empty())
                        .translated())
                .as("a Redis setting alone means Spring's localhost, never an embedded Redis")
                .containsEntry("mykit.delay.redis.host", "localhost");
        assertThat(translate(Map.of("mykit.delay.registry.enable", "true"), Optional.empty())
                        .translated())
                .containsEntry("mykit.delay.mode", "master-slave");
    }

    private static OriginalSettings.Result translate(
            Map<String, String> settings, Optional<OriginalSettings.Located> starter) {
        return OriginalSettings.translate(
                key -> Optional.ofNullable(settings.get(key)),
                key -> List.of(),
                starter,
                className -> false,
                settings::containsKey,
                prefix -> settings.keySet().stream().anyMatch(key -> key.startsWith(prefix + ".")));
    }

    /** The original's application.yml, below {@code overrides} (as command-line arguments would be). */
    private static StandardEnvironment environmentWith(Map<String, Object> overrides) throws IOException {
        StandardEnvironment environment = new StandardEnvironment();
        new YamlPropertySourceLoader()
                .load(
                        "original application.yml",
                        new ByteArrayResource(
                                OriginalFixtures.text("application.yml").getBytes(StandardCharsets.UTF_8)))
                .forEach(environment.getPropertySources()::addLast);
        environment.getPropertySources().addFirst(new MapPropertySource("overrides", new HashMap<>(overrides)));
        return environment;
    }

    private static void run(StandardEnvironment environment) {
        new OriginalSettingsPostProcessor(new DeferredLogs())
                .postProcessEnvironment(environment, new SpringApplication());
    }
}
