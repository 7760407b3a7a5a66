package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.tenant.TenantDirectory;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A tenant's push-rate counts jobs: a batch takes one token per job, and none is larger than a second's worth. */
class TenantPushRateTest {
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong nanos = new AtomicLong(42 * SECOND);
    private final TenantLimits limits =
            new TenantLimits(null, TenantEvents.NONE, nanos::get, () -> TenantDirectory.NONE);

    private static Caller tenantWithRate(double rate) {
        Tenant tenant = new Tenant("rated", List.of("t"), Tenant.patterns("r-*"), new Tenant.Limits(rate, 0, 0));
        return Caller.tenant(tenant, TenantEvents.NONE);
    }

    @Test
    void a_batch_larger_than_a_seconds_worth_is_refused_even_with_a_full_bucket() {
        Caller caller = tenantWithRate(5);
        InvalidJobException refused =
                catchThrowableOfType(InvalidJobException.class, () -> limits.takePush(caller, 1000));
        assertThat(refused).as("a batch of 1,000 against 5 jobs/s").isNotNull();
        assertThat(refused.getMessage())
                .contains("1000 jobs")
                .contains("push-rate of 5 jobs/s")
                .contains("at most 5 jobs per call");
        // the refused batch took nothing: a second's worth still passes at once
        assertThatCode(() -> limits.takePush(caller, 5)).doesNotThrowAnyException();
    }

    @Test
    void jobs_of_batches_are_counted_one_by_one_and_refill_at_the_rate() {
        Caller caller = tenantWithRate(5);
        assertThatCode(() -> limits.takePush(caller, 3)).doesNotThrowAnyException();
        assertThatCode(() -> limits.takePush(caller, 2)).doesNotThrowAnyException();
        TenantLimitException empty = catchThrowableOfType(TenantLimitException.class, () -> limits.takePush(caller, 2));
        assertThat(empty).as("the bucket is empty").isNotNull();
        assertThat(empty.retryAfterSeconds()).isEqualTo(1);
        nanos.addAndGet(SECOND * 2 / 5);
        assertThatCode(() -> limits.takePush(caller, 2)).doesNotThrowAnyException();
        assertThat(catchThrowableOfType(TenantLimitException.class, () -> limits.takePush(caller, 1)))
                .isNotNull();
    }
}
