package io.mykit.delay.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DelayJobTest {

    @Test
    void a_job_built_without_an_id_gets_one_and_keeps_it() {
        DelayJob job = DelayJob.builder("t").build();

        assertThat(job.id()).isNotBlank();
        assertThat(job.id()).isEqualTo(job.id());
        assertThat(DelayJob.builder("t").build().id()).isNotEqualTo(job.id());
    }

    @Test
    void a_due_time_becomes_the_delay_left_when_sent_and_never_a_negative_one() {
        Instant now = Instant.parse("2026-11-28T20:00:00Z");
        DelayJob job = DelayJob.builder("t").dueAt(now.plusSeconds(90)).build();

        assertThat(job.delayMillisAt(now)).isEqualTo(90_000);
        assertThat(job.delayMillisAt(now.plusSeconds(100))).isZero();
        assertThat(DelayJob.builder("t").delay(Duration.ofSeconds(5)).build().delayMillisAt(now))
                .isEqualTo(5_000);
    }

    @Test
    void a_topic_or_id_the_gateway_would_refuse_is_refused_when_built() {
        assertThatThrownBy(() -> DelayJob.builder("a b").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DelayJob.builder("t").id("x~y").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DelayJob.builder("t").id("x".repeat(129)).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(DelayJob.builder("t").id("order:42.close_1-a").build().id()).isEqualTo("order:42.close_1-a");
    }

    @Test
    void negative_durations_and_tries_out_of_range_are_refused() {
        assertThatThrownBy(() -> DelayJob.builder("t").delay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DelayJob.builder("t").tries(1001)).isInstanceOf(IllegalArgumentException.class);
    }
}
