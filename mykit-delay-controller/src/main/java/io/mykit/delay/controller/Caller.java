package io.mykit.delay.controller;

import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.util.PlainNames;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Who makes a request, as {@link CallerFilter} resolved it once: anyone (no tenant configured), the admin, a tenant, or
 * a caller refused on the data plane (no token or an unknown one).
 */
public final class Caller {
    private static final int MAX_TOPIC = 128;

    /** The request attribute the caller is kept in. */
    static final String ATTRIBUTE = Caller.class.getName();

    /** No tenant configured: every caller may use every topic, as without tenants. */
    public static final Caller ANYONE = new Caller(null, null);
    /** The admin token: every topic. */
    public static final Caller ADMIN = new Caller(null, null);

    private final Tenant tenant;
    private final TenantAccessException refusal;
    private final TenantEvents events;

    private Caller(Tenant tenant, TenantAccessException refusal, TenantEvents events) {
        this.tenant = tenant;
        this.refusal = refusal;
        this.events = events;
    }

    private Caller(Tenant tenant, TenantAccessException refusal) {
        this(tenant, refusal, TenantEvents.NONE);
    }

    static Caller tenant(Tenant tenant, TenantEvents events) {
        return new Caller(tenant, null, events);
    }

    static Caller refused(TenantAccessException refusal) {
        return new Caller(null, refusal);
    }

    /** The request's caller; {@link #ANYONE} when no filter resolved one. */
    public static Caller of(HttpServletRequest request) {
        Object caller = request.getAttribute(ATTRIBUTE);
        return caller instanceof Caller known ? known : ANYONE;
    }

    /** The tenant, or null for anyone, the admin and a refused caller. */
    public Tenant tenant() {
        return tenant;
    }

    /** Whether the caller sees only the topics of a tenant. */
    public boolean scoped() {
        return tenant != null;
    }

    /** Throws the 401 of a caller with no token or an unknown one. */
    public void requireKnown() {
        if (refusal != null) {
            throw refusal;
        }
    }

    /** Whether the caller may use {@code topic}. */
    public boolean allows(String topic) {
        return refusal == null && (tenant == null || tenant.allows(topic));
    }

    /**
     * Throws 401 for an unknown caller and 403 for a topic outside the tenant's patterns. A name no topic may have is
     * left to the route's own check (400), as without tenants: no job can be in it.
     */
    public void requireTopic(String topic) {
        requireKnown();
        if (topic != null && !PlainNames.plain(topic, MAX_TOPIC, false)) {
            return;
        }
        if (!allows(topic)) {
            events.refused(tenant.name(), "topic");
            throw TenantAccessException.foreignTopic(topic);
        }
    }

    /** The tenant's name for metrics; "none" without tenants, "admin" for the admin. */
    public String label() {
        return tenant != null ? tenant.name() : this == ADMIN ? "admin" : "none";
    }
}
