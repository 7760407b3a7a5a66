package io.mykit.delay.controller;

import io.mykit.delay.common.error.DelayException;
import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.util.JobIds;
import io.mykit.delay.common.util.PlainNames;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;

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
    /** Where the caller's ids are stored: a tenant with a token has a namespace of its own, anyone else none (""). */
    private final String namespace;

    private Caller(Tenant tenant, TenantAccessException refusal, TenantEvents events) {
        this.tenant = tenant;
        this.refusal = refusal;
        this.events = events;
        this.namespace = tenant == null || tenant.tokenless() ? "" : JobIds.namespace(tenant.name());
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

    /** The namespace the caller's ids are stored behind; "" when they are stored as they are. */
    public String namespace() {
        return namespace;
    }

    /** Whether the caller's ids are stored behind a namespace of its own. */
    public boolean namespaced() {
        return !namespace.isEmpty();
    }

    /** The stored id of the caller's plain {@code id}. */
    public String stored(String id) {
        return namespace + id;
    }

    /** A stored id as the caller spells it: without the caller's namespace. */
    public String shown(String storedId) {
        return namespaced() && storedId != null && storedId.startsWith(namespace)
                ? storedId.substring(namespace.length())
                : storedId;
    }

    /** Stored ids as the caller spells them. */
    public List<String> shown(List<String> storedIds) {
        return namespaced() ? storedIds.stream().map(this::shown).toList() : storedIds;
    }

    /** A job as the caller sees it: the same job, its id spelt as the caller spells it. */
    public Job shown(Job job) {
        if (job == null || shown(job.getId()).equals(job.getId())) {
            return job;
        }
        return job.copy(shown(job.getId()), job.getAttempts());
    }

    /** A failure as the caller is answered it: a message naming its stored ids names them as the caller does. */
    public RuntimeException shown(RuntimeException failure) {
        if (namespaced()
                && failure instanceof DelayException delay
                && !(failure instanceof InvalidJobException)
                && delay.httpStatus() < 500
                && failure.getMessage() != null
                && failure.getMessage().contains(namespace)) {
            return new ShownFailure(delay, failure.getMessage().replace(namespace, ""), shown(delay.jobId()));
        }
        return failure;
    }

    /** A client failure of a namespaced caller, retold with the ids it names as the caller spells them. */
    private static final class ShownFailure extends DelayException {
        private final int status;

        ShownFailure(DelayException told, String message, String jobId) {
            super(message, jobId, null);
            this.status = told.httpStatus();
        }

        @Override
        public int httpStatus() {
            return status;
        }
    }

    /** The tenant's name for metrics; "none" without tenants, "admin" for the admin. */
    public String label() {
        return tenant != null ? tenant.name() : this == ADMIN ? "admin" : "none";
    }
}
