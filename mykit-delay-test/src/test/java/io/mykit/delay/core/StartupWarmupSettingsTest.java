package io.mykit.delay.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the start-up warm-up runs, and how it reads a cancel's refusals. Pure logic. */
class StartupWarmupSettingsTest {

    @Test
    void unset_it_does_not_run_on_any_stores() {
        assertThat(StartupWarmup.duration(null)).isZero();
    }

    @Test
    void a_configured_duration_is_used_as_given() {
        assertThat(StartupWarmup.duration(Duration.ofSeconds(4))).isEqualTo(Duration.ofSeconds(4));
        assertThat(StartupWarmup.duration(Duration.ZERO)).isZero();
    }

    @Test
    void refused_counts_the_jobs_a_cancel_by_bizKey_could_not_cancel() {
        assertThat(WarmupTraffic.refused("{\"success\":true,\"data\":{\"cancelled\":[\"a\",\"b\"],\"refused\":{}}}"))
                .isZero();
        assertThat(WarmupTraffic.refused("{\"success\":true,\"data\":{\"cancelled\":[],\"refused\":{\"a\":\"job a"
                        + " already handed over\",\"b\":\"job b is being stored\"}}}"))
                .isEqualTo(2);
        assertThat(WarmupTraffic.refused("{\"success\":false,\"code\":503}")).isEqualTo(-1);
    }
}
