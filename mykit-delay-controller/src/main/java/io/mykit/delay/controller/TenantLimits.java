package io.mykit.delay.controller;

import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.queue.stats.StatsService;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The limits of each tenant: pushes per second (a token bucket holding one second's worth), jobs pending across its
 * topics, and long-polls open at once. State is kept by tenant name, so a reload of the tenants file keeps it. Calls of
 * the admin and callers without tenants are never limited.
 */
public class TenantLimits {
    /** How long the pending counts of one stats read serve pushes: one Redis read per interval, not per push. */
    static final long PENDING_REFRESH_NANOS = 1_000_000_000L;

    private final StatsService stats;
    private final TenantEvents events;
    private final LongSupplier nanos;
    private final Map<String, PushBucket> buckets = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> polls = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> pushedSinceCount = new ConcurrentHashMap<>();
    private volatile PendingCount pending;
    private final PollShare pollShare;

    public TenantLimits(StatsService stats, TenantEvents events, LongSupplier nanos) {
        this(stats, events, nanos, PollShare.OWN_LIMIT_ONLY);
    }

    /** {@code pollShare}: each tenant's cap on open long-polls. */
    public TenantLimits(StatsService stats, TenantEvents events, LongSupplier nanos, PollShare pollShare) {
        this.stats = stats;
        this.events = events;
        this.nanos = nanos;
        this.pollShare = pollShare;
    }

    public TenantEvents events() {
        return events;
    }

    /** Takes {@code jobs} pushes of the caller's rate and room for them among its pending jobs, or throws 429. */
    void takePush(Caller caller, int jobs) {
        Tenant tenant = caller.tenant();
        if (tenant == null) {
            return;
        }
        Tenant.Limits limits = tenant.limits();
        if (limits.maxPending() > 0) {
            long now = pendingOf(tenant);
            if (now + jobs > limits.maxPending()) {
                events.refused(tenant.name(), "max-pending");
                throw new TenantLimitException(
                        "tenant " + tenant.name() + " has " + now + " pending jobs, at most " + limits.maxPending(), 1);
            }
        }
        if (limits.pushRate() > 0) {
            PushBucket bucket = buckets.computeIfAbsent(tenant.name(), n -> new PushBucket());
            long waitNanos = bucket.take(jobs, limits.pushRate(), nanos.getAsLong());
            if (waitNanos > 0) {
                events.refused(tenant.name(), "push-rate");
                throw new TenantLimitException(
                        "tenant " + tenant.name() + " pushes more than " + limits.pushRate() + " jobs/s",
                        Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L));
            }
        }
    }

    /** Counts pushes stored, toward the pending count until the next stats read includes them. */
    void pushed(Caller caller, int jobs) {
        Tenant tenant = caller.tenant();
        if (tenant == null) {
            return;
        }
        events.pushed(tenant.name(), jobs);
        if (tenant.limits().maxPending() > 0) {
            pushedSinceCount
                    .computeIfAbsent(tenant.name(), n -> new AtomicLong())
                    .addAndGet(jobs);
        }
    }

    /** Takes one of the caller's long-poll slots, or throws 429; the answer gives it back once, when it ends. */
    Runnable takePoll(Caller caller) {
        Tenant tenant = caller.tenant();
        int maxPolls = tenant == null ? 0 : pollShare.of(tenant);
        if (maxPolls <= 0) {
            return () -> {};
        }
        AtomicInteger open = polls.computeIfAbsent(tenant.name(), n -> new AtomicInteger());
        if (open.incrementAndGet() > maxPolls) {
            open.decrementAndGet();
            events.refused(tenant.name(), "max-polls");
            throw new TenantLimitException("tenant " + tenant.name() + " holds " + maxPolls + " long-polls already", 1);
        }
        AtomicBoolean given = new AtomicBoolean();
        return () -> {
            if (given.compareAndSet(false, true)) {
                open.decrementAndGet();
            }
        };
    }

    /** Jobs pending across the tenant's topics: waiting, ready or reserved. */
    private long pendingOf(Tenant tenant) {
        PendingCount count = pending;
        long now = nanos.getAsLong();
        if (count == null || now - count.readAt() > PENDING_REFRESH_NANOS) {
            synchronized (this) {
                count = pending;
                if (count == null || now - count.readAt() > PENDING_REFRESH_NANOS) {
                    // pushes from here on count toward the next read; those before are in this one
                    pushedSinceCount.values().forEach(pushed -> pushed.set(0));
                    count = new PendingCount(now, stats.overview());
                    pending = count;
                }
            }
        }
        long total = 0;
        for (StatsService.TopicLine line : count.overview().topics()) {
            if (tenant.allows(line.topic())) {
                total += line.pending() + line.ready() + line.inFlight();
            }
        }
        AtomicLong since = pushedSinceCount.get(tenant.name());
        return total + (since == null ? 0 : since.get());
    }

    private record PendingCount(long readAt, StatsService.Overview overview) {}

    /** Up to one second's worth of pushes, refilled at the rate. */
    private static final class PushBucket {
        private boolean started;
        private double tokens;
        private long lastNanos;

        /** Takes {@code jobs}, answering 0; or how long until they would be there, taking none. */
        synchronized long take(int jobs, double rate, long now) {
            double capacity = Math.max(1, rate);
            if (!started) {
                started = true;
                tokens = capacity;
            } else {
                tokens = Math.min(capacity, tokens + (now - lastNanos) * rate / 1e9);
            }
            lastNanos = now;
            // a batch larger than a second's worth passes when the bucket is full, and leaves it that far in debt
            double needed = Math.min(jobs, capacity);
            if (tokens >= needed) {
                tokens -= jobs;
                return 0;
            }
            return (long) ((needed - tokens) / rate * 1e9);
        }
    }
}
