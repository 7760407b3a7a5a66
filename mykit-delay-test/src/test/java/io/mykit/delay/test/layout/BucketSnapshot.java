package io.mykit.delay.test.layout;

import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.support.PrefixedRedis;
import io.mykit.delay.test.support.WaitingSlices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;

/**
 * Everything the buckets of one key prefix hold, read straight from Redis, and what in it breaks the store's rules: a
 * job in two buckets, a set entry without its job, a job in no stage or in two.
 */
final class BucketSnapshot {

    /** Where one live job sits; {@code readyTopics} lists every ready-list entry of it (one at most when sound). */
    record Placement(
            int bucket, String record, Double due, Double deadline, String reservations, List<String> readyTopics) {

        Placement movedTo(int other) {
            return new Placement(other, record, due, deadline, reservations, readyTopics);
        }

        String stage() {
            return due != null ? "waiting" : deadline != null ? "in flight" : "ready";
        }
    }

    private final Map<String, Placement> jobs = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final Set<String> inSeveralBuckets = new TreeSet<>();
    private long staleReadyEntries;

    private BucketSnapshot() {}

    /** Reads buckets 0..scanBuckets-1 of the prefix; choose scanBuckets above every count the test used. */
    static BucketSnapshot read(UnifiedJedis redis, String prefix, int scanBuckets) {
        Keys keys = new Keys(prefix, scanBuckets);
        BucketSnapshot snapshot = new BucketSnapshot();
        for (int b = 0; b < scanBuckets; b++) {
            snapshot.readBucket(redis, keys, b);
        }
        return snapshot;
    }

    private void readBucket(UnifiedJedis redis, Keys keys, int b) {
        Map<String, String> pool = redis.hgetAll(keys.pool(b));
        Map<String, Double> due = WaitingSlices.all(redis, keys, b);
        Map<String, Double> deadline = scores(redis.zrangeWithScores(keys.inflight(b), 0, -1));
        Map<String, String> reserved = redis.hgetAll(keys.reserved(b));
        Map<String, List<String>> readyTopics = new HashMap<>();
        String listPrefix = keys.ready(b, "");
        for (String list : keysMatching(redis, keys.readyPattern(b))) {
            for (String id : redis.lrange(list, 0, -1)) {
                if (pool.containsKey(id)) {
                    readyTopics.computeIfAbsent(id, x -> new ArrayList<>()).add(list.substring(listPrefix.length()));
                } else {
                    staleReadyEntries++;
                }
            }
        }
        orphans(b, "delay", due.keySet(), pool);
        orphans(b, "inflight", deadline.keySet(), pool);
        orphans(b, "reserved", reserved.keySet(), pool);
        pool.forEach((id, record) -> {
            Placement placement = new Placement(
                    b,
                    record,
                    due.get(id),
                    deadline.get(id),
                    reserved.get(id),
                    readyTopics.getOrDefault(id, List.of()));
            check(id, placement);
            Placement other = jobs.put(id, placement);
            if (other != null) {
                inSeveralBuckets.add(id);
                problems.add(id + " is in buckets " + other.bucket() + " and " + b);
            }
        });
    }

    private void check(String id, Placement p) {
        int stages = (p.due() == null ? 0 : 1)
                + (p.deadline() == null ? 0 : 1)
                + p.readyTopics().size();
        if (stages != 1) {
            problems.add(id + " in bucket " + p.bucket() + " is in " + stages + " stages: " + p);
        } else if (!p.readyTopics().isEmpty()
                && !p.readyTopics()
                        .get(0)
                        .equals(JobCodec.decode(id, p.record()).getTopic())) {
            problems.add(
                    id + " is in the ready list of topic " + p.readyTopics().get(0) + ", not its own");
        }
    }

    private void orphans(int b, String set, Set<String> ids, Map<String, String> pool) {
        ids.stream()
                .filter(id -> !pool.containsKey(id))
                .forEach(id -> problems.add(id + " is in " + set + " of bucket " + b + " without a record there"));
    }

    private static Map<String, Double> scores(List<Tuple> tuples) {
        Map<String, Double> scores = new HashMap<>(tuples.size() * 2);
        tuples.forEach(t -> scores.put(t.getElement(), t.getScore()));
        return scores;
    }

    static List<String> keysMatching(UnifiedJedis redis, String pattern) {
        return PrefixedRedis.keysMatching(redis, pattern);
    }

    Map<String, Placement> jobs() {
        return jobs;
    }

    List<String> problems() {
        return problems;
    }

    Set<String> inSeveralBuckets() {
        return inSeveralBuckets;
    }

    long staleReadyEntries() {
        return staleReadyEntries;
    }

    /** Jobs per stage; "reserved" counts jobs with a reservation count, whatever their stage. */
    Map<String, Long> stageCounts() {
        Map<String, Long> counts = new TreeMap<>();
        jobs.values().forEach(p -> {
            counts.merge(p.stage(), 1L, Long::sum);
            if (p.reservations() != null) {
                counts.merge("reserved", 1L, Long::sum);
            }
        });
        return counts;
    }

    /** This snapshot's jobs as they must sit once placed by {@code bucketOf}: same everything, other bucket. */
    Map<String, Placement> placedBy(BiFunction<String, Placement, Integer> bucketOf) {
        Map<String, Placement> expected = new HashMap<>(jobs.size() * 2);
        jobs.forEach((id, p) -> expected.put(id, p.movedTo(bucketOf.apply(id, p))));
        return expected;
    }

    /** Up to ten jobs that differ from {@code expected}, and how many differ in all; empty when equal. */
    List<String> differencesFrom(Map<String, Placement> expected) {
        List<String> differences = new ArrayList<>();
        long count = 0;
        Set<String> ids = new TreeSet<>(expected.keySet());
        ids.addAll(jobs.keySet());
        for (String id : ids) {
            Placement want = expected.get(id);
            Placement got = jobs.get(id);
            if (want == null || !want.equals(got)) {
                if (++count <= 10) {
                    differences.add(id + ": expected " + want + ", found " + got);
                }
            }
        }
        if (count > 10) {
            differences.add("... " + count + " jobs differ in all");
        }
        return differences;
    }
}
