package io.mykit.delay.queue.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private final RetryPolicy policy = new RetryPolicy(1_000, 60_000, 16);

    private static Job job(int tries, long ttl) {
        return new Job("j", "t", null, null, 0, 0, ttl, tries, "b", 10_000);
    }

    @Test
    void backoff_doubles_from_the_base_and_stops_at_the_cap() {
        assertThat(policy.backoff(1)).isEqualTo(1_000);
        assertThat(policy.backoff(2)).isEqualTo(2_000);
        assertThat(policy.backoff(5)).isEqualTo(16_000);
        assertThat(policy.backoff(7)).isEqualTo(60_000);
        assertThat(policy.backoff(200)).isEqualTo(60_000);
    }

    @Test
    void retries_until_tries_are_used_up_then_dead() {
        assertThat(policy.decide(job(3, 0), 1, 20_000))
                .isEqualTo(new RetryPolicy.Decision(RetryPolicy.Verdict.RETRY, 21_000));
        assertThat(policy.decide(job(3, 0), 2, 20_000).retryAt()).isEqualTo(22_000);
        assertThat(policy.decide(job(3, 0), 3, 20_000).verdict()).isEqualTo(RetryPolicy.Verdict.DEAD);
        assertThat(policy.decide(job(0, 0), 15, 20_000).verdict())
                .as("default tries 16")
                .isEqualTo(RetryPolicy.Verdict.RETRY);
        assertThat(policy.decide(job(0, 0), 16, 20_000).verdict()).isEqualTo(RetryPolicy.Verdict.DEAD);
    }

    @Test
    void ttl_counts_from_the_due_time_and_expires_before_tries_run_out() {
        assertThat(policy.decide(job(16, 5_000), 1, 14_999).verdict()).isEqualTo(RetryPolicy.Verdict.RETRY);
        assertThat(policy.decide(job(16, 5_000), 1, 15_000).verdict()).isEqualTo(RetryPolicy.Verdict.EXPIRED);
    }
}
