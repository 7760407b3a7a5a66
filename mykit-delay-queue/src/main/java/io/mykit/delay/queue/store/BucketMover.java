package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.common.util.Buckets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * Moves every job placed by one bucket count to its bucket under another, old bucket by old bucket, a page of the pool
 * at a time:
 *
 * <pre>
 *   read a page of the old bucket's pool          (HSCAN)
 *   read the leaving jobs' stages there           (one pipeline: ZMSCORE x2, HMGET)
 *   write them into their new buckets             (migrate_in.lua per new bucket, a pipeline per node)
 *   remove them from the old bucket               (migrate_out.lua)
 *   move the finish marks of ids that change bucket (added there first)
 * then per old bucket: drop ready-list entries of jobs that left (prune_ready.lua), or, for a bucket that no longer
 * exists, delete what is left of it (ready lists, tombstones, restore marker, entries of ids without a record).
 * </pre>
 *
 * A crash at any point leaves each job in its old bucket, its new one, or both with the same stage; running the move
 * again finishes it. No command or script names keys of two buckets and batches are pipelined per node
 * ({@link RedisNodes#pipelines()}), so it runs on a Redis Cluster too.
 */
final class BucketMover {
    private static final int PAGE = 1000;

    private final RedisNodes redis;
    private final Keys keys;
    private final BucketLayout.PageHook hook;
    private final MigrationScripts scripts;

    BucketMover(RedisNodes redis, Keys keys, BucketLayout.PageHook hook) {
        this.redis = redis;
        this.keys = keys;
        this.hook = hook;
        this.scripts = new MigrationScripts(redis);
    }

    MigrationReport move(int from, int to) {
        long start = System.nanoTime();
        Tally tally = new Tally();
        // one key per bucket of either count reaches every node a migration call can run on
        scripts.load(IntStream.range(0, Math.max(from, to)).mapToObj(keys::pool).toList());
        for (int bucket = 0; bucket < from; bucket++) {
            moveOut(bucket, to, tally);
            moveFinishMarks(bucket, to);
            if (bucket < to) {
                pruneReady(bucket, tally);
            } else {
                retire(bucket, tally);
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new MigrationReport(
                from,
                to,
                tally.waiting,
                tally.ready,
                tally.inFlight,
                tally.withReservations,
                tally.alreadyThere,
                tally.readyEntriesDropped,
                tally.tombstonesDropped,
                tally.retired,
                millis);
    }

    private void moveOut(int bucket, int to, Tally tally) {
        ScanParams params = new ScanParams().count(PAGE);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            // entries already moved are gone from the pool; HSCAN still returns every entry present throughout
            ScanResult<Map.Entry<String, String>> page = redis.client().hscan(keys.pool(bucket), cursor, params);
            Map<String, String> leaving = new LinkedHashMap<>();
            page.getResult().stream()
                    .filter(e -> Buckets.of(e.getKey(), to) != bucket)
                    .forEach(e -> leaving.put(e.getKey(), e.getValue()));
            if (!leaving.isEmpty()) {
                movePage(bucket, to, read(bucket, leaving), tally);
            }
            cursor = page.getCursor();
        } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
    }

    /** The stage of each leaving job in its old bucket. */
    private List<MovingJob> read(int bucket, Map<String, String> records) {
        String[] ids = records.keySet().toArray(String[]::new);
        List<Response<Double>> due = new ArrayList<>(ids.length);
        Response<List<Double>> deadline;
        Response<List<String>> reservations;
        try (NodePipelines<?> pipes = redis.pipelines()) {
            // the three keys share the bucket's slot: one node, one pipeline
            AbstractPipeline pipe = pipes.on(keys.pool(bucket));
            for (String id : ids) {
                due.add(pipe.zscore(keys.dueSlice(bucket, id), id));
            }
            deadline = pipe.zmscore(keys.inflight(bucket), ids);
            reservations = pipe.hmget(keys.reserved(bucket), ids);
            pipes.sync();
        }
        List<MovingJob> jobs = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            String record = records.get(ids[i]);
            Double dueAt = due.get(i).get();
            Double deadlineAt = deadline.get().get(i);
            // neither waiting nor in flight: due and queued in its pull topic's ready list
            String topic = dueAt == null && deadlineAt == null ? topicOf(bucket, ids[i], record) : null;
            jobs.add(new MovingJob(
                    ids[i], record, dueAt, deadlineAt, reservations.get().get(i), topic));
        }
        return jobs;
    }

    private static String topicOf(int bucket, String id, String record) {
        try {
            return JobCodec.decode(id, record).getTopic();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    "job " + id + " in bucket " + bucket + " is ready but its record cannot be "
                            + "read, so its ready list is unknown: " + e.getMessage(),
                    e);
        }
    }

    private void movePage(int bucket, int to, List<MovingJob> jobs, Tally tally) {
        Map<Integer, List<MovingJob>> byTarget = new TreeMap<>();
        jobs.forEach(job -> byTarget.computeIfAbsent(Buckets.of(job.id(), to), b -> new ArrayList<>())
                .add(job));
        List<MigrationScripts.Call> writes = new ArrayList<>(byTarget.size());
        byTarget.forEach((target, group) -> writes.add(moveInCall(target, group)));
        long fresh = scripts.run(writes).stream().mapToLong(Long.class::cast).sum();
        tally.alreadyThere += jobs.size() - fresh;
        jobs.forEach(tally::count);
        hook.written(tally.moved());
        List<String> ids = jobs.stream().map(MovingJob::id).toList();
        scripts.run(List.of(new MigrationScripts.Call(
                scripts.moveOut,
                List.of(
                        keys.due(bucket),
                        keys.inflight(bucket),
                        keys.pool(bucket),
                        keys.reserved(bucket),
                        keys.counts(bucket)),
                ids)));
    }

    private MigrationScripts.Call moveInCall(int target, List<MovingJob> jobs) {
        List<String> callKeys = new ArrayList<>(List.of(
                keys.pool(target),
                keys.due(target),
                keys.inflight(target),
                keys.reserved(target),
                keys.counts(target)));
        Map<String, Integer> readyIndex = new LinkedHashMap<>();
        List<String> args = new ArrayList<>(jobs.size() * 6);
        for (MovingJob job : jobs) {
            int ready = 0;
            if (job.readyTopic() != null) {
                ready = readyIndex.computeIfAbsent(job.readyTopic(), topic -> {
                    callKeys.add(keys.ready(target, topic));
                    return callKeys.size() - 5;
                });
            }
            args.add(job.id());
            args.add(job.record());
            args.add(MovingJob.score(job.due()));
            args.add(MovingJob.score(job.deadline()));
            args.add(job.reservations() == null ? "" : job.reservations());
            args.add(Integer.toString(ready));
        }
        return new MigrationScripts.Call(scripts.moveIn, callKeys, args);
    }

    private void pruneReady(int bucket, Tally tally) {
        List<MigrationScripts.Call> prunes = readyLists(bucket).stream()
                .map(list -> new MigrationScripts.Call(scripts.pruneReady, List.of(list, keys.pool(bucket)), List.of()))
                .toList();
        if (!prunes.isEmpty()) {
            scripts.run(prunes).forEach(dropped -> tally.readyEntriesDropped += (Long) dropped);
        }
    }

    /**
     * Finish marks (a finish answered, its Finish maybe not journaled) follow their ids to the new buckets: unlike a
     * restore's tombstones they outlive a restart, and a restore after the migration must still see them.
     */
    private void moveFinishMarks(int bucket, int to) {
        UnifiedJedis client = redis.client();
        Map<Integer, Map<String, Double>> byTarget = new TreeMap<>();
        for (Tuple mark : client.zrangeWithScores(keys.finished(bucket), 0, -1)) {
            int target = Buckets.of(mark.getElement(), to);
            if (target != bucket) {
                byTarget.computeIfAbsent(target, t -> new LinkedHashMap<>()).put(mark.getElement(), mark.getScore());
            }
        }
        if (byTarget.isEmpty()) {
            return;
        }
        byTarget.forEach((target, marks) -> client.zadd(keys.finished(target), marks));
        client.zrem(
                keys.finished(bucket),
                byTarget.values().stream()
                        .flatMap(marks -> marks.keySet().stream())
                        .toArray(String[]::new));
    }

    /** A bucket beyond the new count: every job has left it, so what remains is leftovers. */
    private void retire(int bucket, Tally tally) {
        UnifiedJedis client = redis.client();
        long left = client.hlen(keys.pool(bucket));
        if (left > 0) {
            throw new IllegalStateException("bucket " + bucket + " still holds " + left
                    + " jobs after moving them out: is a gateway of this key prefix running?");
        }
        List<String> doomed = new ArrayList<>(List.of(
                keys.due(bucket),
                keys.legacyDelay(bucket),
                keys.inflight(bucket),
                keys.reserved(bucket),
                keys.restoring(bucket),
                keys.ended(bucket),
                keys.counts(bucket)));
        doomed.addAll(keys.dueSlices(bucket));
        List<String> lists = readyLists(bucket);
        for (String list : lists) {
            tally.readyEntriesDropped += client.llen(list);
        }
        doomed.addAll(lists);
        tally.tombstonesDropped += client.zcard(keys.ended(bucket));
        client.del(doomed.toArray(String[]::new));
        tally.retired++;
    }

    /** The ready lists of one bucket (SCAN with the bucket's hash tag, so a cluster asks only its node). */
    private List<String> readyLists(int bucket) {
        List<String> lists = new ArrayList<>();
        ScanParams params = new ScanParams().match(keys.readyPattern(bucket)).count(PAGE);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = redis.client().scan(cursor, params);
            lists.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        return lists.stream().distinct().toList();
    }

    /** Running counts of one migration. */
    private static final class Tally {
        long waiting;
        long ready;
        long inFlight;
        long withReservations;
        long alreadyThere;
        long readyEntriesDropped;
        long tombstonesDropped;
        int retired;

        void count(MovingJob job) {
            if (job.due() != null) {
                waiting++;
            } else if (job.deadline() != null) {
                inFlight++;
            } else {
                ready++;
            }
            if (job.reservations() != null) {
                withReservations++;
            }
        }

        long moved() {
            return waiting + ready + inFlight;
        }
    }
}
