package io.mykit.delay.common.tenant;

/**
 * The tenant directory in force; a reload of the tenants file swaps it whole, so a request sees one set or the other.
 */
public final class LiveTenants {
    private volatile TenantDirectory directory;

    public LiveTenants(TenantDirectory initial) {
        this.directory = initial;
    }

    public TenantDirectory directory() {
        return directory;
    }

    public void replace(TenantDirectory next) {
        this.directory = next;
    }
}
