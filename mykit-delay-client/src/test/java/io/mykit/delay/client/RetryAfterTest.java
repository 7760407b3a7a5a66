package io.mykit.delay.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
    private static final Instant NOW = Instant.parse("2026-11-28T20:00:00Z");

    @Test
    void seconds_are_read_as_a_wait() {
        assertThat(RetryAfter.parse("1", NOW)).contains(Duration.ofSeconds(1));
        assertThat(RetryAfter.parse(" 120 ", NOW)).contains(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse("0", NOW)).contains(Duration.ZERO);
    }

    @Test
    void an_http_date_is_read_as_the_time_left_until_it() {
        assertThat(RetryAfter.parse("Sat, 28 Nov 2026 20:00:30 GMT", NOW)).contains(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Sat, 28 Nov 2026 19:59:00 GMT", NOW)).contains(Duration.ZERO);
    }

    @Test
    void anything_else_is_no_wait_asked_for() {
        assertThat(RetryAfter.parse(null, NOW)).isEmpty();
        assertThat(RetryAfter.parse("", NOW)).isEmpty();
        assertThat(RetryAfter.parse("-1", NOW)).isEmpty();
        assertThat(RetryAfter.parse("1.5", NOW)).isEmpty();
        assertThat(RetryAfter.parse("soon", NOW)).isEmpty();
        assertThat(RetryAfter.parse("99999999999999999999999", NOW)).isEmpty();
    }
}
