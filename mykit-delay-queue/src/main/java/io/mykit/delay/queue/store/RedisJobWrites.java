package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import redis.clients.jedis.Response;

/** {@link JobWrites} on Redis: add.lua and respawn.lua pipelined per node, one script call per bucket. */
final class RedisJobWrites implements JobWrites {
    private final StoreCalls calls;
    private final Endings endings;

    RedisJobWrites(StoreCalls calls, Endings endings) {
        this.calls = calls;
        this.endings = endings;
    }

    @Override
    public List<String> add(Collection<Job> jobs) {
        return add(jobs, false);
    }

    /** {@code unlessEnded}: a restore's add, which also passes the tombstones and finish marks to add.lua. */
    List<String> add(Collection<Job> jobs, boolean unlessEnded) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        Keys keys = calls.keys();
        Map<Integer, List<String>> argsByBucket = recordsByBucket(jobs);
        return calls
                .pipelined(pipe -> {
                    List<Response<Object>> replies = new ArrayList<>();
                    argsByBucket.forEach((bucket, args) -> replies.add(StoreCalls.evalsha(
                            pipe,
                            calls.scripts().add,
                            unlessEnded
                                    ? List.of(
                                            keys.due(bucket),
                                            keys.pool(bucket),
                                            keys.counts(bucket),
                                            keys.ended(bucket),
                                            keys.finished(bucket))
                                    : List.of(keys.due(bucket), keys.pool(bucket), keys.counts(bucket)),
                            args)));
                    return replies;
                })
                .stream()
                .flatMap(r -> ((List<?>) r).stream())
                .map(String.class::cast)
                .toList();
    }

    @Override
    public int respawn(Collection<Job> jobs) {
        if (jobs.isEmpty()) {
            return 0;
        }
        Keys keys = calls.keys();
        Map<Integer, List<String>> argsByBucket = recordsByBucket(jobs);
        return calls
                .pipelined(pipe -> {
                    List<Response<Object>> replies = new ArrayList<>();
                    argsByBucket.forEach((bucket, args) -> replies.add(StoreCalls.evalsha(
                            pipe,
                            calls.scripts().respawn,
                            List.of(
                                    keys.due(bucket),
                                    keys.inflight(bucket),
                                    keys.pool(bucket),
                                    keys.reserved(bucket),
                                    keys.counts(bucket)),
                            args)));
                    return replies;
                })
                .stream()
                .mapToInt(r -> ((Long) r).intValue())
                .sum();
    }

    /** id, due time, record triplets per bucket, as add.lua and respawn.lua take them. */
    private Map<Integer, List<String>> recordsByBucket(Collection<Job> jobs) {
        Map<Integer, List<String>> argsByBucket = new TreeMap<>();
        for (Job job : jobs) {
            List<String> args = argsByBucket.computeIfAbsent(bucketOf(job.getId()), b -> new ArrayList<>());
            args.add(job.getId());
            args.add(Long.toString(job.dueTime()));
            args.add(calls.encode(job));
        }
        return argsByBucket;
    }

    @Override
    public RescheduleResult reschedule(Job job) {
        int b = bucketOf(job.getId());
        Keys keys = calls.keys();
        long result = (Long) calls.eval(
                calls.scripts().reschedule,
                List.of(keys.due(b), keys.inflight(b), keys.pool(b)),
                List.of(job.getId(), Long.toString(job.dueTime()), calls.encode(job)));
        return result == 1
                ? RescheduleResult.RESCHEDULED
                : result == 0 ? RescheduleResult.NOT_IN_REDIS : RescheduleResult.NOT_WAITING;
    }

    @Override
    public Delivery.RemoveResult delete(String jobId) {
        return endings.cancel(jobId);
    }

    @Override
    public Optional<StoredJob> peek(String jobId) {
        int bucket = bucketOf(jobId);
        Keys keys = calls.keys();
        return calls.step(() -> {
            Response<String> record;
            Response<Double> due;
            Response<Double> deadline;
            Response<String> reserved;
            try (NodePipelines<?> pipes = calls.redis().pipelines()) {
                // the four keys share the bucket's slot: one pipeline on one node
                record = pipes.on(keys.pool(bucket)).hget(keys.pool(bucket), jobId);
                due = pipes.on(keys.due(bucket)).zscore(keys.dueSlice(bucket, jobId), jobId);
                deadline = pipes.on(keys.inflight(bucket)).zscore(keys.inflight(bucket), jobId);
                reserved = pipes.on(keys.reserved(bucket)).hget(keys.reserved(bucket), jobId);
                pipes.sync();
            }
            if (record.get() == null) {
                return Optional.empty();
            }
            Job job = JobCodec.decode(jobId, record.get());
            int reservations = reserved.get() == null ? 0 : Integer.parseInt(reserved.get());
            if (due.get() != null) {
                return Optional.of(
                        new StoredJob(job, StoredJob.Stage.DELAYED, due.get().longValue(), reservations));
            }
            if (deadline.get() != null) {
                return Optional.of(new StoredJob(
                        job, StoredJob.Stage.IN_FLIGHT, deadline.get().longValue(), reservations));
            }
            return Optional.of(new StoredJob(job, StoredJob.Stage.READY, job.dueTime(), reservations));
        });
    }

    @Override
    public int bucketOf(String jobId) {
        return calls.bucketOf(jobId);
    }

    @Override
    public int buckets() {
        return calls.keys().buckets();
    }
}
