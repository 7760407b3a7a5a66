package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@link Delivery} on Redis: one script per step (pump_due, to_ready, reserve, unreserve, touch, release, retry, park,
 * sweep; the finishes and forgets through {@link Endings}), each on one bucket's keys; sweeps are pipelined per node.
 */
final class RedisDelivery implements Delivery {
    /** Tombstones left behind by a restore whose node died are trimmed by the sweeper after this. */
    private static final long TOMBSTONE_RETENTION_MS = 600_000;

    private final StoreCalls calls;
    private final Keys keys;
    private final Scripts scripts;
    private final FenceTokens fence;
    private final Endings endings;
    private final AtomicInteger reserveStart = new AtomicInteger();

    RedisDelivery(StoreCalls calls, Endings endings) {
        this.calls = calls;
        this.keys = calls.keys();
        this.scripts = calls.scripts();
        this.fence = calls.fence();
        this.endings = endings;
    }

    @Override
    public PumpResult pumpDue(int bucket, long now, int limit, long handOverMs) {
        return pump(
                bucket,
                List.of(Long.toString(now), Integer.toString(limit), Long.toString(handOverMs), fence.token(bucket)));
    }

    @Override
    public PumpResult pumpDueToReady(int bucket, long now, int limit) {
        return pumpDueToReady(bucket, now, limit, List.of());
    }

    @Override
    public PumpResult pumpDueToReady(int bucket, long now, int limit, List<Claim> claims) {
        // no hand-over deadline: the jobs never sit in flight unless reserved for a claim
        List<String> args = new ArrayList<>(
                List.of(Long.toString(now), Integer.toString(limit), "0", fence.token(bucket), keys.ready(bucket, "")));
        if (!claims.isEmpty()) {
            args.add(Integer.toString(claims.size()));
            for (Claim claim : claims) {
                args.add(Integer.toString(claim.max()));
                args.add(Long.toString(claim.ttrMs()));
                args.add(Integer.toString(claim.topics().size()));
                args.addAll(claim.topics());
            }
        }
        return pump(bucket, args);
    }

    private PumpResult pump(int bucket, List<String> args) {
        List<?> reply = (List<?>) calls.evalFenced(
                bucket,
                scripts.pumpDue,
                List.of(
                        keys.due(bucket),
                        keys.inflight(bucket),
                        keys.pool(bucket),
                        keys.owner(bucket),
                        keys.counts(bucket),
                        keys.reserved(bucket)),
                args);
        // { next, R, R x (id, record, reservations, claim number, due), id, record, due, ... }
        long nextDue = (long) Double.parseDouble((String) reply.get(0));
        int direct = (int) (long) (Long) reply.get(1);
        int readiedFrom = 2 + 5 * direct;
        List<Job> jobs = new ArrayList<>(direct + (reply.size() - readiedFrom) / 3);
        List<PumpResult.Reserved> reserved = new ArrayList<>(direct);
        for (int i = 2; i < readiedFrom; i += 5) {
            Job job = reservedJob(reply.get(i), reply.get(i + 1), reply.get(i + 2));
            job.handOverDue(score(reply.get(i + 4)));
            jobs.add(job);
            reserved.add(new PumpResult.Reserved((int) ((Long) reply.get(i + 3) - 1), job));
        }
        for (int i = readiedFrom; i + 2 < reply.size(); i += 3) {
            Job job = JobCodec.decode((String) reply.get(i), (String) reply.get(i + 1));
            job.handOverDue(score(reply.get(i + 2)));
            jobs.add(job);
        }
        return new PumpResult(jobs, nextDue, reserved);
    }

    /** A score as a script returns it (a string, as Redis formats a double). */
    private static long score(Object reply) {
        return (long) Double.parseDouble((String) reply);
    }

    @Override
    public int toReady(int bucket, String topic, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        List<String> args = new ArrayList<>(ids.size() + 1);
        args.add(fence.token(bucket));
        args.addAll(ids);
        Object moved = calls.evalFenced(
                bucket,
                scripts.toReady,
                List.of(keys.inflight(bucket), keys.ready(bucket, topic), keys.owner(bucket), keys.counts(bucket)),
                args);
        return ((Long) moved).intValue();
    }

    @Override
    public List<Job> reserve(String topic, long ttrMs, int max) {
        return calls.step(() -> {
            int n = keys.buckets();
            // one round trip per node finds the non-empty ready lists, so an empty topic costs no n round trips
            List<Long> lengths = new ArrayList<>(n);
            try (NodePipelines<?> pipes = calls.redis().pipelines()) {
                List<Response<Long>> replies = new ArrayList<>(n);
                for (int b = 0; b < n; b++) {
                    replies.add(pipes.on(keys.ready(b, topic)).llen(keys.ready(b, topic)));
                }
                pipes.sync();
                replies.forEach(reply -> lengths.add(reply.get()));
            }
            List<Job> reserved = new ArrayList<>();
            int start = Math.floorMod(reserveStart.getAndIncrement(), n);
            for (int i = 0; i < n && reserved.size() < max; i++) {
                int b = (start + i) % n;
                if (lengths.get(b) == 0) {
                    continue;
                }
                try {
                    Object hits = scripts.eval(
                            scripts.reserve,
                            reserveKeys(b, topic),
                            List.of(Long.toString(ttrMs), Integer.toString(max - reserved.size())));
                    reserved.addAll(decodeReserved(hits));
                } catch (RuntimeException e) {
                    if (reserved.isEmpty()) {
                        throw e;
                    }
                    // what earlier buckets gave is reserved: the caller answers with it rather than leave it to its ttr
                    break;
                }
            }
            return reserved;
        });
    }

    @Override
    public Reservation reserveFrom(int bucket, String topic, long ttrMs, int max) {
        Object hits = calls.eval(
                scripts.reserve, reserveKeys(bucket, topic), List.of(Long.toString(ttrMs), Integer.toString(max)));
        List<?> flat = (List<?>) hits;
        // reserve.lua ends its reply with the list's length after the reservation
        boolean drained = flat.size() % 3 == 1 && (Long) flat.get(flat.size() - 1) == 0;
        return new Reservation(decodeReserved(hits), drained);
    }

    @Override
    public boolean unreserve(Job job) {
        int b = calls.bucketOf(job.getId());
        // attempts is the reservation count minus one (decodeReserved)
        return (Long) calls.eval(
                        scripts.unreserve,
                        reserveKeys(b, job.getTopic()),
                        List.of(job.getId(), Integer.toString(job.getAttempts() + 1)))
                == 1;
    }

    private List<String> reserveKeys(int bucket, String topic) {
        return List.of(
                keys.ready(bucket, topic),
                keys.inflight(bucket),
                keys.pool(bucket),
                keys.reserved(bucket),
                keys.counts(bucket));
    }

    /**
     * A flat { id, record, reservations, ..., left } reply as jobs whose attempts are their earlier reservations
     * ({@code left}, the ready list's length after the reservation, is the one element past the triples).
     */
    private static List<Job> decodeReserved(Object reply) {
        List<?> flat = (List<?>) reply;
        List<Job> jobs = new ArrayList<>(flat.size() / 3);
        for (int i = 0; i + 2 < flat.size(); i += 3) {
            jobs.add(reservedJob(flat.get(i), flat.get(i + 1), flat.get(i + 2)));
        }
        return jobs;
    }

    /** A reserved job as a script answers it: its attempts are the reservations before this one. */
    private static Job reservedJob(Object id, Object record, Object reservations) {
        Job job = JobCodec.decode((String) id, (String) record);
        job.setAttempts((int) ((Long) reservations - 1));
        return job;
    }

    @Override
    public RemoveResult finish(String jobId, long now) {
        return endings.finish(jobId, now);
    }

    @Override
    public List<RemoveResult> finishAll(List<String> jobIds, long now) {
        return endings.finishAll(jobIds, now);
    }

    @Override
    public Released release(String jobId, long dueAt, long now, int defaultTries) {
        int b = calls.bucketOf(jobId);
        List<?> reply = (List<?>) calls.eval(
                scripts.release,
                List.of(keys.due(b), keys.inflight(b), keys.pool(b), keys.reserved(b), keys.counts(b)),
                List.of(jobId, Long.toString(dueAt), Long.toString(now), Integer.toString(defaultTries)));
        return switch (((Long) reply.get(0)).intValue()) {
            case 1 -> new Released(Released.Outcome.RELEASED, null);
            case 0 -> new Released(Released.Outcome.ABSENT, null);
            case -1 -> new Released(Released.Outcome.NOT_RESERVED, null);
            default -> {
                Job job = JobCodec.decode(jobId, (String) reply.get(1));
                job.setAttempts(((Long) reply.get(2)).intValue());
                yield new Released(Released.Outcome.SPENT, job);
            }
        };
    }

    @Override
    public boolean touch(String jobId, long ttrMs) {
        int b = calls.bucketOf(jobId);
        return (Long) calls.eval(
                        scripts.touch,
                        List.of(keys.inflight(b), keys.reserved(b)),
                        List.of(jobId, Long.toString(ttrMs)))
                == 1;
    }

    @Override
    public Map<Integer, Swept> sweep(Collection<Integer> buckets, int limitPerBucket, int defaultTries, long parkMs) {
        List<Integer> order = List.copyOf(buckets);
        if (order.isEmpty()) {
            return Map.of();
        }
        List<Object> replies = calls.pipelined(pipe -> {
            List<Response<Object>> out = new ArrayList<>();
            for (int b : order) {
                out.add(StoreCalls.evalsha(
                        pipe,
                        scripts.sweep,
                        List.of(
                                keys.inflight(b),
                                keys.due(b),
                                keys.pool(b),
                                keys.reserved(b),
                                keys.restoring(b),
                                keys.ended(b),
                                keys.owner(b),
                                keys.counts(b),
                                keys.legacyDelay(b)),
                        List.of(
                                Integer.toString(limitPerBucket),
                                Integer.toString(defaultTries),
                                Long.toString(parkMs),
                                Long.toString(TOMBSTONE_RETENTION_MS),
                                fence.token(b))));
            }
            return out;
        });
        Map<Integer, Swept> swept = new LinkedHashMap<>();
        for (int i = 0; i < replies.size(); i++) {
            int b = order.get(i);
            if (replies.get(i) instanceof JedisDataException) {
                // this bucket has a newer owner: skip it, the others were swept
                fence.refused(b);
                continue;
            }
            List<?> reply = (List<?>) replies.get(i);
            List<?> returned = (List<?>) reply.get(0);
            // each triple's third is the tries used, which decodeReserved reads as a reservation count (attempts + 1)
            List<Job> spent = decodeReserved(reply.get(1));
            spent.forEach(job -> job.setAttempts(job.getAttempts() + 1));
            if (!returned.isEmpty() || !spent.isEmpty()) {
                swept.put(b, new Swept(returned.stream().map(String.class::cast).toList(), spent));
            }
        }
        return swept;
    }

    @Override
    public int forget(int bucket, List<String> ids) {
        return endings.forget(bucket, ids);
    }

    @Override
    public List<String> park(int bucket, List<Job> jobs, long parkMs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        List<String> args = new ArrayList<>(jobs.size() * 2 + 2);
        args.add(fence.token(bucket));
        args.add(Long.toString(parkMs));
        for (Job job : jobs) {
            args.add(job.getId());
            args.add(calls.encode(job));
        }
        List<?> parked = (List<?>) calls.evalFenced(
                bucket, scripts.park, List.of(keys.inflight(bucket), keys.pool(bucket), keys.owner(bucket)), args);
        return parked.stream().map(String.class::cast).toList();
    }

    @Override
    public int retry(int bucket, List<Job> jobs, List<Long> dueTimes) {
        if (jobs.isEmpty()) {
            return 0;
        }
        List<String> args = new ArrayList<>(jobs.size() * 3 + 1);
        args.add(fence.token(bucket));
        for (int i = 0; i < jobs.size(); i++) {
            args.add(jobs.get(i).getId());
            args.add(Long.toString(dueTimes.get(i)));
            args.add(calls.encode(jobs.get(i)));
        }
        Object moved = calls.evalFenced(
                bucket,
                scripts.retry,
                List.of(
                        keys.due(bucket),
                        keys.inflight(bucket),
                        keys.pool(bucket),
                        keys.owner(bucket),
                        keys.counts(bucket)),
                args);
        return ((Long) moved).intValue();
    }
}
