package io.mykit.delay.controller;

import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.common.tenant.Tenant;

/**
 * How many long-polls a tenant may hold open on this node at once: its own {@code max-polls} when set, else an equal
 * share of the node's {@code pull.max-waiting-polls} among the tenants in force, so that no tenant can take every slot.
 */
public final class PollShare {
    /** Only a tenant's own max-polls counts (no share of the node). */
    public static final PollShare OWN_LIMIT_ONLY = new PollShare(null, 0);

    private final LiveTenants tenants;
    private final int nodePolls;

    public PollShare(LiveTenants tenants, int nodePolls) {
        this.tenants = tenants;
        this.nodePolls = nodePolls;
    }

    /** The tenant's cap on open long-polls; 0 = none. */
    public int of(Tenant tenant) {
        int own = tenant.limits().maxPolls();
        if (own > 0 || tenants == null) {
            return own;
        }
        return Math.max(1, nodePolls / Math.max(1, tenants.directory().tenants().size()));
    }
}
