package io.mykit.delay.common.tenant;

import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * The configured tenants and the admin token, as one immutable set: a reload replaces the whole directory. Empty means
 * tenants are off and every caller is served as without them.
 */
public final class TenantDirectory {
    public static final TenantDirectory NONE = new TenantDirectory(List.of(), null);

    private final List<Tenant> tenants;
    private final byte[] adminDigest;
    private final Tenant tokenless;

    /** {@code adminToken}: null or blank for none. */
    public TenantDirectory(List<Tenant> tenants, String adminToken) {
        this.tenants = List.copyOf(tenants);
        this.adminDigest = adminToken == null || adminToken.isBlank() ? null : Tenant.digest(adminToken);
        this.tokenless = tenants.stream()
                .filter(t -> Tenant.DEFAULT.equals(t.name()) && t.tokenless())
                .findFirst()
                .orElse(null);
    }

    /** Whether tenants are configured: with none, no call needs a token. */
    public boolean enabled() {
        return !tenants.isEmpty();
    }

    public List<Tenant> tenants() {
        return tenants;
    }

    public Optional<Tenant> byName(String name) {
        return tenants.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** The tenant whose patterns match {@code topic}: one at most, since no two tenants' patterns may overlap. */
    public Optional<Tenant> ownerOf(String topic) {
        return tenants.stream().filter(t -> t.allows(topic)).findFirst();
    }

    /** The tenant that takes calls without a token, if {@value Tenant#DEFAULT} is configured without one. */
    public Optional<Tenant> tokenless() {
        return Optional.ofNullable(tokenless);
    }

    /** Who presents {@code token}: the admin, a tenant, or nobody known. Costs one digest and a compare per token. */
    public Holder holderOf(String token) {
        byte[] digest = Tenant.digest(token);
        boolean admin = adminDigest != null && MessageDigest.isEqual(adminDigest, digest);
        Tenant found = null;
        for (Tenant tenant : tenants) {
            // no early exit: the time taken must not tell which tenant's token came close
            if (tenant.holds(digest) && found == null) {
                found = tenant;
            }
        }
        return admin ? Holder.ADMIN : found == null ? Holder.UNKNOWN : new Holder(found);
    }

    /** The holder of a token: {@link #ADMIN}, {@link #UNKNOWN}, or a tenant. */
    public static final class Holder {
        public static final Holder ADMIN = new Holder(null);
        public static final Holder UNKNOWN = new Holder(null);

        private final Tenant tenant;

        private Holder(Tenant tenant) {
            this.tenant = tenant;
        }

        /** The tenant; null for the admin and for an unknown token. */
        public Tenant tenant() {
            return tenant;
        }

        public boolean admin() {
            return this == ADMIN;
        }

        public boolean unknown() {
            return this == UNKNOWN;
        }
    }
}
