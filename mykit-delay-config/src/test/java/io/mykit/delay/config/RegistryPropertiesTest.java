package io.mykit.delay.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class RegistryPropertiesTest {

    private static DelayProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bind("mykit.delay", DelayProperties.class)
                .orElseGet(DelayProperties::new);
    }

    @Test
    void the_originals_registry_keys_and_the_kebab_case_ones_bind_alike() {
        DelayProperties original = bind(Map.of(
                "mykit.delay.mode", "master-slave",
                "mykit.delay.registry.serverList", "127.0.0.1:2181",
                "mykit.delay.registry.namespace", "io-mykit-delay"));
        assertThat(original.getMode()).isEqualTo(DelayProperties.Mode.MASTER_SLAVE);
        assertThat(original.getRegistry().getServerList()).isEqualTo("127.0.0.1:2181");
        assertThat(original.getRegistry().getNamespace()).isEqualTo("io-mykit-delay");

        DelayProperties kebab = bind(Map.of(
                "mykit.delay.mode", "cluster",
                "mykit.delay.registry.server-list", "zk1:2181,zk2:2181",
                "mykit.delay.registry.session-timeout", "2s"));
        assertThat(kebab.getMode()).isEqualTo(DelayProperties.Mode.CLUSTER);
        assertThat(kebab.getRegistry().getServerList()).isEqualTo("zk1:2181,zk2:2181");
        assertThat(kebab.getRegistry().getSessionTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void the_defaults_are_standalone_with_a_session_timeout_far_below_curators_minute() {
        DelayProperties defaults = new DelayProperties();
        assertThat(defaults.getMode()).isEqualTo(DelayProperties.Mode.STANDALONE);
        assertThat(defaults.getRegistry().getSessionTimeout()).isLessThanOrEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void a_zookeeper_mode_needs_a_server_list_and_sane_names() {
        DelayProperties properties = bind(Map.of(
                "mykit.delay.redis.host", "127.0.0.1",
                "mykit.delay.mode", "cluster",
                "mykit.delay.registry.namespace", "has/slash",
                "mykit.delay.registry.node-id", "bad id"));
        assertThatThrownBy(properties::validate)
                .hasMessageContaining("mykit.delay.registry.server-list must be set: mode cluster")
                .hasMessageContaining("mykit.delay.registry.namespace must match")
                .hasMessageContaining("mykit.delay.registry.node-id must match");
    }

    @Test
    void a_suspend_grace_the_session_could_expire_in_is_refused_and_the_default_bound_is_4_15_of_the_session() {
        assertThat(RegistryProperties.maxSuspendGrace(Duration.ofSeconds(6))).isEqualTo(Duration.ofMillis(1_600));
        DelayProperties tooLong = bind(Map.of(
                "mykit.delay.redis.host", "127.0.0.1",
                "mykit.delay.mode", "cluster",
                "mykit.delay.registry.server-list", "127.0.0.1:2181",
                "mykit.delay.registry.session-timeout", "3s",
                "mykit.delay.registry.suspend-grace", "900ms"));
        assertThatThrownBy(tooLong::validate)
                .hasMessageContaining("mykit.delay.registry.suspend-grace PT0.9S is longer than PT0.8S");

        DelayProperties stopAtOnce = bind(Map.of(
                "mykit.delay.redis.host", "127.0.0.1",
                "mykit.delay.mode", "master-slave",
                "mykit.delay.registry.server-list", "127.0.0.1:2181",
                "mykit.delay.registry.suspend-grace", "0s"));
        stopAtOnce.validate();
        assertThat(stopAtOnce.getRegistry().getSuspendGrace()).isZero();
        assertThat(new DelayProperties().getRegistry().getSuspendGrace())
                .as("unset: the longest safe grace")
                .isNull();
    }
}
