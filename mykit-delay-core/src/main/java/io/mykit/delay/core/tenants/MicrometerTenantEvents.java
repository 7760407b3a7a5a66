package io.mykit.delay.core.tenants;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.mykit.delay.controller.TenantEvents;

/**
 * Counters tagged by tenant: {@code mykit.delay.tenant.pushes}, {@code mykit.delay.tenant.pulls} (jobs) and
 * {@code mykit.delay.tenant.refusals} (calls, tagged by reason too). Tenants are few and configured, so the tags are
 * bounded.
 */
public final class MicrometerTenantEvents implements TenantEvents {
    private final MeterRegistry registry;

    public MicrometerTenantEvents(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void pushed(String tenant, int jobs) {
        Counter.builder("mykit.delay.tenant.pushes")
                .description("Jobs a tenant pushed and the gateway stored")
                .tag("tenant", tenant)
                .register(registry)
                .increment(jobs);
    }

    @Override
    public void pulled(String tenant, int jobs) {
        Counter.builder("mykit.delay.tenant.pulls")
                .description("Jobs a tenant's pulls reserved")
                .tag("tenant", tenant)
                .register(registry)
                .increment(jobs);
    }

    @Override
    public void refused(String tenant, String reason) {
        Counter.builder("mykit.delay.tenant.refusals")
                .description("Calls of a tenant refused: a foreign topic (403) or a limit (429)")
                .tag("tenant", tenant)
                .tag("reason", reason)
                .register(registry)
                .increment();
    }
}
