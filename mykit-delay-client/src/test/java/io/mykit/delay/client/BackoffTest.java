package io.mykit.delay.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void the_ceiling_doubles_from_the_initial_wait_up_to_the_max() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));

        assertThat(backoff.ceilingMillis(0)).isEqualTo(100);
        assertThat(backoff.ceilingMillis(1)).isEqualTo(200);
        assertThat(backoff.ceilingMillis(3)).isEqualTo(800);
        assertThat(backoff.ceilingMillis(4)).isEqualTo(1000);
        assertThat(backoff.ceilingMillis(Integer.MAX_VALUE)).isEqualTo(1000);
    }

    @Test
    void each_wait_lies_in_the_upper_half_of_its_ceiling() {
        Backoff lowest = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), bound -> 0);
        Backoff highest = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), bound -> bound);

        assertThat(lowest.delay(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(highest.delay(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(lowest.delay(10)).isEqualTo(Duration.ofMillis(500));
        assertThat(highest.delay(10)).isEqualTo(Duration.ofMillis(1000));
    }

    @Test
    void random_waits_stay_within_their_bounds() {
        Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(640));
        for (int n = 0; n < 10; n++) {
            for (int i = 0; i < 200; i++) {
                long ceiling = backoff.ceilingMillis(n);
                assertThat(backoff.delay(n).toMillis()).isBetween(ceiling - ceiling / 2, ceiling);
            }
        }
    }

    @Test
    void a_max_below_the_initial_wait_is_refused() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
