package io.mykit.delay.controller;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.tenant.TenantDirectory;
import io.mykit.delay.queue.stats.StatsService;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * The limits of each tenant: pushes per second (a token bucket holding one second's worth, one token per job), jobs
 * pending across its topics, and long-polls open at once. State is kept by tenant name, so a reload of the tenants file
 * keeps it. Pushes of the admin and of callers without tenants are never limited; a respawn of dead jobs takes room in
 * the pending count of the tenant whose topic it is, whoever asks.
 *
 * <p>Pending = the last read of the store's counters (at most {@link #PENDING_REFRESH_NANOS} old) + jobs stored since
 * that read + jobs of pushes and respawns under way. A push reserves its jobs before it stores them, under one lock
 * with the check, so concurrent pushes cannot all pass on the same count.
 */
public class TenantLimits {
    /** How long the pending counts of one stats read serve pushes: one Redis read per interval, not per push. */
    static final long PENDING_REFRESH_NANOS = 1_000_000_000L;

    private final StatsService stats;
    private final TenantEvents events;
    private final LongSupplier nanos;
    private final Supplier<TenantDirectory> tenants;
    private final Map<String, PushBucket> buckets = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> polls = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> streams = new ConcurrentHashMap<>();
    /** Guarded by {@code this}: per tenant, jobs reserved by pushes under way and jobs stored since the last read. */
    private final Map<String, Room> rooms = new HashMap<>();
    /** Guarded by {@code this}. */
    private PendingCount pending;

    private final PollShare pollShare;

    public TenantLimits(
            StatsService stats, TenantEvents events, LongSupplier nanos, Supplier<TenantDirectory> tenants) {
        this(stats, events, nanos, tenants, PollShare.OWN_LIMIT_ONLY);
    }

    /** {@code pollShare}: each tenant's cap on open long-polls. */
    public TenantLimits(
            StatsService stats,
            TenantEvents events,
            LongSupplier nanos,
            Supplier<TenantDirectory> tenants,
            PollShare pollShare) {
        this.stats = stats;
        this.events = events;
        this.nanos = nanos;
        this.tenants = tenants;
        this.pollShare = pollShare;
    }

    public TenantEvents events() {
        return events;
    }

    /**
     * Takes {@code jobs} pushes of the caller's rate and room for them among its pending jobs, or throws 429 (400 for a
     * batch larger than a second's worth of its rate, which could never pass). The push reports what it stored on the
     * reservation and closes it when it ends, either way.
     */
    Reservation takePush(Caller caller, int jobs) {
        Tenant tenant = caller.tenant();
        if (tenant == null) {
            return Reservation.NONE;
        }
        Tenant.Limits limits = tenant.limits();
        if (limits.pushRate() > 0 && jobs > PushBucket.capacity(limits.pushRate())) {
            events.refused(tenant.name(), "push-rate");
            throw new InvalidJobException(
                    "jobs",
                    "a batch of " + jobs + " jobs exceeds tenant " + tenant.name() + "'s push-rate of "
                            + number(limits.pushRate()) + " jobs/s: at most "
                            + (long) PushBucket.capacity(limits.pushRate()) + " jobs per call");
        }
        Reservation room =
                limits.maxPending() > 0 ? reserve(tenant, jobs, true) : new Reservation(this, tenant, 0, true);
        if (limits.pushRate() > 0) {
            PushBucket bucket = buckets.computeIfAbsent(tenant.name(), n -> new PushBucket());
            long waitNanos = bucket.take(jobs, limits.pushRate(), nanos.getAsLong());
            if (waitNanos > 0) {
                room.cancel();
                events.refused(tenant.name(), "push-rate");
                throw new TenantLimitException(
                        "tenant " + tenant.name() + " pushes more than " + number(limits.pushRate()) + " jobs/s",
                        Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L));
            }
        }
        return room;
    }

    /**
     * Room for a respawn of dead jobs into {@code topic}, in the pending count of the tenant whose patterns match it,
     * whoever asks, or 429 when they do not all fit. {@code deadJobs} counts the jobs the respawn would put back, up to
     * the given bound; it is asked only when a limit applies. The respawn puts back at most {@link Reservation#jobs()}.
     */
    public Reservation takeRespawn(Caller caller, String topic, LongUnaryOperator deadJobs) {
        // the tenant whose topic it is, whoever calls; the caller's own only when no pattern matches
        Tenant tenant = tenants.get().ownerOf(topic).orElse(caller.tenant());
        if (tenant == null || tenant.limits().maxPending() <= 0) {
            return Reservation.NONE;
        }
        long max = tenant.limits().maxPending();
        long jobs = deadJobs.applyAsLong(max + 1);
        return reserve(tenant, jobs, false);
    }

    /** Reserves room for {@code jobs} among the tenant's pending jobs, or throws 429. */
    private synchronized Reservation reserve(Tenant tenant, long jobs, boolean push) {
        long max = tenant.limits().maxPending();
        Room room = rooms.computeIfAbsent(tenant.name(), n -> new Room());
        long now = read().of(tenant) + room.storedSinceRead + room.reserved;
        if (now + jobs > max) {
            events.refused(tenant.name(), "max-pending");
            throw new TenantLimitException(
                    "tenant " + tenant.name() + " has " + now + " pending jobs, at most " + max
                            + (jobs > 1 ? "; these " + jobs + " do not fit" : ""),
                    1);
        }
        room.reserved += jobs;
        return new Reservation(this, tenant, jobs, push);
    }

    /** Ends a reservation: its jobs leave the reserved ones, and those that may be stored count until the next read. */
    private synchronized void settle(Tenant tenant, long reserved, long stored) {
        Room room = rooms.get(tenant.name());
        if (room != null) {
            room.reserved -= reserved;
            room.storedSinceRead += stored;
        }
    }

    /**
     * The last read of the counters, read again when older than the interval; under the lock, so that no check adds one
     * read's count to the jobs stored since another.
     */
    private PendingCount read() {
        long now = nanos.getAsLong();
        if (pending == null || now - pending.readAt() > PENDING_REFRESH_NANOS) {
            // jobs stored from here on count toward the next read; those stored before are in this one
            rooms.values().forEach(room -> room.storedSinceRead = 0);
            pending = new PendingCount(now, stats.overview());
        }
        return pending;
    }

    /** Takes one of the caller's long-poll slots, or throws 429; the answer gives it back once, when it ends. */
    Runnable takePoll(Caller caller) {
        Tenant tenant = caller.tenant();
        int maxPolls = tenant == null ? 0 : pollShare.of(tenant);
        if (maxPolls <= 0) {
            return () -> {};
        }
        return takeSlot(polls, tenant, maxPolls, "max-polls", "long-polls");
    }

    /**
     * Takes one of the caller's stream slots, or throws 429: its own {@code max-streams}, else an equal share of the
     * node's {@code nodeStreams} among the tenants in force. The stream gives it back once, when it ends.
     */
    Runnable takeStream(Caller caller, int nodeStreams) {
        Tenant tenant = caller.tenant();
        if (tenant == null) {
            return () -> {};
        }
        int own = tenant.limits().maxStreams();
        int max = own > 0
                ? own
                : Math.max(1, nodeStreams / Math.max(1, tenants.get().tenants().size()));
        return takeSlot(streams, tenant, max, "max-streams", "streams");
    }

    private Runnable takeSlot(Map<String, AtomicInteger> slots, Tenant tenant, int max, String reason, String what) {
        AtomicInteger open = slots.computeIfAbsent(tenant.name(), n -> new AtomicInteger());
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            events.refused(tenant.name(), reason);
            throw new TenantLimitException("tenant " + tenant.name() + " holds " + max + " " + what + " already", 1);
        }
        AtomicBoolean given = new AtomicBoolean();
        return () -> {
            if (given.compareAndSet(false, true)) {
                open.decrementAndGet();
            }
        };
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /**
     * Room taken for the jobs of one push or respawn. {@link #stored} says how many it stored; {@link #close} without
     * it means the call failed part-way, and its jobs count as stored until the next read, since some may be.
     */
    public static final class Reservation implements AutoCloseable {
        /** No limit applies: nothing is counted, and a respawn is not held to a number. */
        static final Reservation NONE = new Reservation(null, null, Integer.MAX_VALUE, false);

        private final TenantLimits limits;
        private final Tenant tenant;
        private final long jobs;
        private final boolean push;
        private final AtomicBoolean settled = new AtomicBoolean();

        private Reservation(TenantLimits limits, Tenant tenant, long jobs, boolean push) {
            this.limits = limits;
            this.tenant = tenant;
            this.jobs = jobs;
            this.push = push;
        }

        /** How many jobs the call may store. */
        public int jobs() {
            return (int) Math.min(jobs, Integer.MAX_VALUE);
        }

        /** The call stored {@code stored} jobs. */
        public void stored(int stored) {
            if (tenant != null && push) {
                limits.events.pushed(tenant.name(), stored);
            }
            end(stored);
        }

        /** Nothing was tried: the room goes back as it was. */
        void cancel() {
            end(0);
        }

        @Override
        public void close() {
            end(jobs);
        }

        private void end(long stored) {
            if (tenant != null && jobs > 0 && settled.compareAndSet(false, true)) {
                limits.settle(tenant, jobs, Math.min(stored, jobs));
            }
        }
    }

    /** One tenant's jobs not in the last read yet. */
    private static final class Room {
        private long reserved;
        private long storedSinceRead;
    }

    /** One read of the counters, with each tenant's total worked out once. */
    private static final class PendingCount {
        private final long readAt;
        private final StatsService.Overview overview;
        private final Map<String, Long> byTenant = new HashMap<>();

        PendingCount(long readAt, StatsService.Overview overview) {
            this.readAt = readAt;
            this.overview = overview;
        }

        long readAt() {
            return readAt;
        }

        /** Jobs pending across the tenant's topics: waiting, ready or reserved. */
        long of(Tenant tenant) {
            return byTenant.computeIfAbsent(tenant.name(), n -> {
                long total = 0;
                for (StatsService.TopicLine line : overview.topics()) {
                    if (tenant.allows(line.topic())) {
                        total += line.pending() + line.ready() + line.inFlight();
                    }
                }
                return total;
            });
        }
    }

    /** Up to one second's worth of pushes, refilled at the rate. */
    private static final class PushBucket {
        private boolean started;
        private double tokens;
        private long lastNanos;

        /** The most jobs the bucket holds: a second's worth, and at least one. */
        static double capacity(double rate) {
            return Math.max(1, rate);
        }

        /**
         * Takes {@code jobs} (at most the capacity), answering 0; or how long until they would be there, taking none.
         */
        synchronized long take(int jobs, double rate, long now) {
            double capacity = capacity(rate);
            if (!started) {
                started = true;
                tokens = capacity;
            } else {
                tokens = Math.min(capacity, tokens + (now - lastNanos) * rate / 1e9);
            }
            lastNanos = now;
            if (tokens >= jobs) {
                tokens -= jobs;
                return 0;
            }
            return (long) Math.ceil((jobs - tokens) / rate * 1e9);
        }
    }
}
