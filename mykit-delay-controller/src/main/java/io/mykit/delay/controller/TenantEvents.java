package io.mykit.delay.controller;

/** What tenants do, for metrics tagged by tenant; the core module counts them with Micrometer. */
public interface TenantEvents {
    TenantEvents NONE = new TenantEvents() {
        @Override
        public void pushed(String tenant, int jobs) {}

        @Override
        public void pulled(String tenant, int jobs) {}

        @Override
        public void refused(String tenant, String reason) {}
    };

    /** Jobs a tenant pushed and the gateway stored. */
    void pushed(String tenant, int jobs);

    /** Jobs a tenant's pulls reserved. */
    void pulled(String tenant, int jobs);

    /** A call refused: reason topic (403), push-rate, max-pending, max-polls or max-streams (429). */
    void refused(String tenant, String reason);
}
