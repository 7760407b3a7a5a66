package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.Response;
import redis.clients.jedis.resps.Tuple;

/**
 * {@link RestoreMarks} on Redis: per bucket a restore marker (a counter that expires), a tombstone ZSET and a finish
 * mark ZSET (see {@link Keys}). The marks of every bucket are written in one pipeline per node.
 */
final class RedisRestoreMarks implements RestoreMarks {
    /** A restore renews its mark per page; a mark left by a node that died goes away after this. */
    private static final long RESTORE_MARK_TTL_MS = 120_000;

    private final StoreCalls calls;
    private final Keys keys;
    private final RedisJobWrites jobs;

    RedisRestoreMarks(StoreCalls calls, RedisJobWrites jobs) {
        this.calls = calls;
        this.keys = calls.keys();
        this.jobs = jobs;
    }

    @Override
    public void beginRestore() {
        calls.batch(pipes -> {
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.restoring(b)).incr(keys.restoring(b));
                pipes.on(keys.restoring(b)).pexpire(keys.restoring(b), RESTORE_MARK_TTL_MS);
            }
        });
    }

    @Override
    public void keepRestoring() {
        calls.batch(pipes -> {
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.restoring(b)).pexpire(keys.restoring(b), RESTORE_MARK_TTL_MS);
                pipes.on(keys.ended(b)).pexpire(keys.ended(b), RESTORE_MARK_TTL_MS);
            }
        });
    }

    @Override
    public void endRestore() {
        calls.pipelined(pipe -> {
            List<Response<Object>> replies = new ArrayList<>();
            for (int b = 0; b < keys.buckets(); b++) {
                replies.add(StoreCalls.evalsha(
                        pipe, calls.scripts().endRestore, List.of(keys.restoring(b), keys.ended(b)), List.of()));
            }
            return replies;
        });
    }

    @Override
    public List<String> addUnlessEnded(Collection<Job> added) {
        return jobs.add(added, true);
    }

    @Override
    public void markEnded(String jobId) {
        int bucket = bucketOf(jobId);
        calls.eval(calls.scripts().markEnded, List.of(keys.restoring(bucket), keys.ended(bucket)), List.of(jobId));
    }

    @Override
    public void forgetFinishMarks(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return;
        }
        Map<Integer, List<String>> byBucket = new TreeMap<>();
        jobIds.forEach(id ->
                byBucket.computeIfAbsent(bucketOf(id), b -> new ArrayList<>()).add(id));
        calls.batch(pipes -> byBucket.forEach(
                (b, ids) -> pipes.on(keys.finished(b)).zrem(keys.finished(b), ids.toArray(String[]::new))));
    }

    @Override
    public void markFinished(String jobId, long at) {
        String key = keys.finished(bucketOf(jobId));
        calls.batch(pipes -> pipes.on(key).zadd(key, at, jobId));
    }

    @Override
    public Map<String, Long> finishMarksBefore(long before, int limitPerBucket) {
        List<Response<List<Tuple>>> replies = new ArrayList<>();
        calls.batch(pipes -> {
            for (int b = 0; b < keys.buckets(); b++) {
                String marks = keys.finished(b);
                replies.add(pipes.on(marks)
                        .zrangeByScoreWithScores(marks, Double.NEGATIVE_INFINITY, before, 0, limitPerBucket));
            }
        });
        Map<String, Long> marks = new LinkedHashMap<>();
        replies.forEach(reply -> reply.get().forEach(t -> marks.put(t.getElement(), (long) t.getScore())));
        return marks;
    }

    @Override
    public int bucketOf(String jobId) {
        return calls.bucketOf(jobId);
    }

    @Override
    public int buckets() {
        return keys.buckets();
    }
}
