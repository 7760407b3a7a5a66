package io.mykit.delay.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** When the start-up warm-up runs unless configured, and how it reads a cancel's refusals. Pure logic. */
class StartupWarmupSettingsTest {

    @Test
    void unset_it_runs_on_external_stores_and_not_on_the_embedded_ones() {
        assertThat(StartupWarmup.duration(null, new StandardEnvironment())).isEqualTo(Duration.ofSeconds(60));
        StandardEnvironment embedded = new StandardEnvironment();
        // the property source EmbeddedStoresPostProcessor adds when it started the stores
        embedded.getPropertySources()
                .addFirst(new MapPropertySource(
                        "mykitDelayEmbeddedStores",
                        Map.of("mykit.delay.redis.host", "127.0.0.1", "spring.datasource.url", "jdbc:h2:file:./x")));
        assertThat(StartupWarmup.duration(null, embedded)).isZero();
    }

    @Test
    void a_configured_duration_wins_either_way() {
        StandardEnvironment embedded = new StandardEnvironment();
        embedded.getPropertySources()
                .addFirst(new MapPropertySource(
                        "mykitDelayEmbeddedStores", Map.of("mykit.delay.redis.host", "127.0.0.1")));
        assertThat(StartupWarmup.duration(Duration.ofSeconds(4), embedded)).isEqualTo(Duration.ofSeconds(4));
        assertThat(StartupWarmup.duration(Duration.ZERO, new StandardEnvironment()))
                .isZero();
    }

    @Test
    void refused_counts_the_jobs_a_cancel_by_bizKey_could_not_cancel() {
        assertThat(StartupWarmup.refused("{\"success\":true,\"data\":{\"cancelled\":[\"a\",\"b\"],\"refused\":{}}}"))
                .isZero();
        assertThat(StartupWarmup.refused("{\"success\":true,\"data\":{\"cancelled\":[],\"refused\":{\"a\":\"job a"
                        + " already handed over\",\"b\":\"job b is being stored\"}}}"))
                .isEqualTo(2);
        assertThat(StartupWarmup.refused("{\"success\":false,\"code\":503}")).isEqualTo(-1);
    }
}
