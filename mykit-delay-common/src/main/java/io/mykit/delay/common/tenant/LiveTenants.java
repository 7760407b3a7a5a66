package io.mykit.delay.common.tenant;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The tenant directory in force; a reload of the tenants file swaps it whole, so a request sees one set or the other.
 * Listeners hear of each swap after it, to end what a revoked token still holds open (long-polls).
 */
public final class LiveTenants {
    private volatile TenantDirectory directory;
    private final List<Runnable> replaced = new CopyOnWriteArrayList<>();

    public LiveTenants(TenantDirectory initial) {
        this.directory = initial;
    }

    public TenantDirectory directory() {
        return directory;
    }

    public void replace(TenantDirectory next) {
        this.directory = next;
        replaced.forEach(Runnable::run);
    }

    /** {@code listener} runs after each {@link #replace}, on the replacing thread. */
    public void onReplace(Runnable listener) {
        replaced.add(listener);
    }
}
