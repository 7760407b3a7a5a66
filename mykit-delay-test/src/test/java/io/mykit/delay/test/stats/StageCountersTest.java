package io.mykit.delay.test.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.queue.stats.StageCounts;
import io.mykit.delay.queue.stats.StoreCounters;
import io.mykit.delay.queue.store.BucketLayout;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.PrefixedRedis;
import io.mykit.delay.test.support.WaitingSlices;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/**
 * The per-bucket stage counters stay equal to what Redis holds through every verb that moves a job (store level, the
 * shared Redis, a key prefix per test). After each step the counters are compared with explicit numbers and with a full
 * read of the buckets.
 */
class StageCountersTest {
    private static final int BUCKETS = 4;
    private static final String A = "orders";
    private static final String B = "pull-topic";

    private static PrefixedRedis shared;
    private static UnifiedJedis redis;
    private static SingleRedis nodes;
    private String prefix;
    private RedisDelayStore store;
    private StoreCounters counters;
    private long now;

    @BeforeAll
    static void connect() {
        shared = PrefixedRedis.connect();
        redis = shared.client();
        nodes = shared.nodes();
    }

    @AfterAll
    static void disconnect() {
        shared.close();
    }

    @BeforeEach
    void freshPrefix() {
        prefix = "counts-" + UUID.randomUUID().toString().substring(0, 8);
        useBuckets(BUCKETS);
        now = System.currentTimeMillis();
        // an empty store: counting it marks the counters complete, as the first /stats read does
        assertThat(counters.recountAll()).isZero();
    }

    @AfterEach
    void deleteKeys() {
        shared.deleteKeys(prefix);
    }

    private void useBuckets(int buckets) {
        Keys keys = new Keys(prefix, buckets);
        store = new RedisDelayStore(nodes, keys);
        counters = new StoreCounters(nodes, keys);
    }

    private static Job job(String id, String topic, long due) {
        return new Job(id, topic, null, null, 0, 0, 0, 0, "body of " + id + " with \"topic\":\"fake\"", due);
    }

    private Map<String, StageCounts> counted() {
        return counters.snapshot(System.currentTimeMillis()).topics();
    }

    /** The counters say exactly this, and a full read of the buckets agrees. */
    private void assertCounts(Map<String, StageCounts> expected) {
        assertThat(counted()).as("counters").isEqualTo(expected);
        assertThat(truth()).as("a full read of the buckets").isEqualTo(expected);
    }

    /** Per topic and stage, from the pool and the two sorted sets of every bucket: what the counters must say. */
    private Map<String, StageCounts> truth() {
        Keys keys = store.keys();
        Map<String, StageCounts> out = new TreeMap<>();
        for (int b = 0; b < keys.buckets(); b++) {
            for (Map.Entry<String, String> e : redis.hgetAll(keys.pool(b)).entrySet()) {
                String topic = JobCodec.decode(e.getKey(), e.getValue()).getTopic();
                StageCounts c = WaitingSlices.score(redis, keys, b, e.getKey()) != null
                        ? new StageCounts(1, 0, 0)
                        : redis.zscore(keys.inflight(b), e.getKey()) != null
                                ? new StageCounts(0, 0, 1)
                                : new StageCounts(0, 1, 0);
                out.merge(topic, c, StageCounts::plus);
            }
        }
        return out;
    }

    private static Map<String, StageCounts> counts(Object... topicAndCounts) {
        Map<String, StageCounts> out = new TreeMap<>();
        for (int i = 0; i < topicAndCounts.length; i += 4) {
            out.put(
                    (String) topicAndCounts[i],
                    new StageCounts((Integer) topicAndCounts[i + 1], (Integer) topicAndCounts[i + 2], (Integer)
                            topicAndCounts[i + 3]));
        }
        return out;
    }

    /** Pumps every bucket until nothing due is left; returns the jobs handed over. */
    private List<Job> pumpAll() {
        List<Job> out = new ArrayList<>();
        for (int b = 0; b < store.buckets(); b++) {
            out.addAll(
                    store.pumpDue(b, System.currentTimeMillis(), 1_000, 60_000).jobs());
        }
        return out;
    }

    private List<Job> seedThree() {
        List<Job> jobs = List.of(
                job("a1", A, now - 5),
                job("a2", A, now - 5),
                job("a3", A, now + 3_600_000),
                job("b1", B, now - 5),
                job("b2", B, now - 5));
        assertThat(store.add(jobs)).hasSize(5);
        return jobs;
    }

    @Test
    void push_counts_waiting_jobs_and_a_repeat_counts_nothing() {
        List<Job> jobs = seedThree();
        assertCounts(counts(A, 3, 0, 0, B, 2, 0, 0));
        assertThat(store.add(jobs)).as("repeat push").isEmpty();
        assertCounts(counts(A, 3, 0, 0, B, 2, 0, 0));
    }

    @Test
    void pump_moves_due_jobs_to_in_flight_and_ready_hand_over_to_ready() {
        seedThree();
        List<Job> pumped = pumpAll();
        assertThat(pumped).hasSize(4);
        assertCounts(counts(A, 1, 0, 2, B, 0, 0, 2));

        for (int b = 0; b < store.buckets(); b++) {
            int bucket = b;
            List<String> ids = pumped.stream()
                    .filter(j -> j.getTopic().equals(B) && store.bucketOf(j.getId()) == bucket)
                    .map(Job::getId)
                    .toList();
            store.toReady(b, B, ids);
        }
        assertCounts(counts(A, 1, 0, 2, B, 0, 2, 0));

        assertThat(store.reserve(B, 30_000, 1)).hasSize(1);
        assertCounts(counts(A, 1, 0, 2, B, 0, 1, 1));
    }

    @Test
    void cancel_takes_a_waiting_or_ready_job_off_and_refuses_one_in_flight() {
        seedThree();
        assertThat(store.delete("a3")).isEqualTo(DelayStore.RemoveResult.REMOVED);
        assertCounts(counts(A, 2, 0, 0, B, 2, 0, 0));

        pumpAll();
        assertThat(store.delete("a1")).isEqualTo(DelayStore.RemoveResult.IN_FLIGHT);
        store.toReady(store.bucketOf("b1"), B, List.of("b1"));
        assertThat(store.delete("b1")).as("ready job").isEqualTo(DelayStore.RemoveResult.REMOVED);
        assertThat(store.delete("b1")).as("twice").isEqualTo(DelayStore.RemoveResult.ABSENT);
        assertCounts(counts(A, 0, 0, 2, B, 0, 0, 1));
    }

    @Test
    void finish_takes_pulled_jobs_off_and_refuses_jobs_no_puller_had() {
        seedThree();
        pumpAll();
        assertThat(store.finish("a1", System.currentTimeMillis()))
                .as("held by a broker sender")
                .isEqualTo(DelayStore.RemoveResult.IN_FLIGHT);
        toReadyAll(B, List.of("b1", "b2"));
        assertThat(store.reserve(B, 30_000, 2)).hasSize(2);
        assertThat(store.finishAll(List.of("b1", "b2"), System.currentTimeMillis()))
                .containsOnly(DelayStore.RemoveResult.REMOVED);
        assertThat(store.forget(store.bucketOf("a2"), List.of("a2")))
                .as("ack of a broker delivery")
                .isEqualTo(1);
        assertThat(store.forget(store.bucketOf("a2"), List.of("a2")))
                .as("a repeated ack")
                .isZero();
        assertThat(store.add(List.of(job("a5", A, now - 1)))).hasSize(1);
        assertThat(store.finish("a5", System.currentTimeMillis()))
                .as("due, not yet handed over")
                .isEqualTo(DelayStore.RemoveResult.NOT_HANDED_OVER);
        assertCounts(counts(A, 2, 0, 1));
    }

    @Test
    void a_batch_finish_answers_each_id_in_order_whatever_its_stage_and_bucket() {
        List<Job> jobs = new ArrayList<>(List.of(
                job("w-due", A, now - 5),
                job("w-later", A, now + 3_600_000),
                job("r1", B, now - 5),
                job("f1", A, now - 5),
                job("h1", A, now - 5),
                job("w-again", A, now - 5)));
        // enough reserved jobs that one bucket's ids take more than one script call (500 per call)
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1_300; i++) {
            jobs.add(job("many-" + i, B, now - 5));
            many.add("many-" + i);
        }
        assertThat(store.add(jobs)).hasSize(jobs.size());
        assertThat(pumpAll()).hasSize(jobs.size() - 1);
        // pulled: f1 and w-again from A, the many from B; r1 left ready; w-due and h1 held as by a broker sender
        toReadyAll(A, List.of("f1", "w-again"));
        assertThat(store.reserve(A, 30_000, 10)).hasSize(2);
        toReadyAll(B, many);
        assertThat(store.reserve(B, 30_000, 2_000)).hasSize(1_300);
        assertThat(store.toReady(store.bucketOf("r1"), B, List.of("r1", "r1", "no-such-job")))
                .as("r1 once")
                .isEqualTo(1);
        // a reservation given back, due now: waiting again, a puller's
        assertThat(store.release("w-again", now - 1, now, 16).outcome())
                .isEqualTo(DelayStore.Released.Outcome.RELEASED);
        // a job due now that no puller had: waiting for its hand-over
        assertThat(store.add(List.of(job("w-due-2", A, now - 1)))).hasSize(1);

        List<String> ids = new ArrayList<>(List.of("f1", "w-later", "nobody", "r1", "w-due-2", "f1", "h1", "w-again"));
        ids.addAll(many);
        List<DelayStore.RemoveResult> results = store.finishAll(ids, System.currentTimeMillis());

        assertThat(results.subList(0, 8))
                .containsExactly(
                        DelayStore.RemoveResult.REMOVED,
                        DelayStore.RemoveResult.NOT_DUE,
                        DelayStore.RemoveResult.ABSENT,
                        DelayStore.RemoveResult.REMOVED,
                        DelayStore.RemoveResult.NOT_HANDED_OVER,
                        DelayStore.RemoveResult.ABSENT,
                        DelayStore.RemoveResult.IN_FLIGHT,
                        DelayStore.RemoveResult.REMOVED);
        assertThat(results.subList(8, results.size())).hasSize(1_300).containsOnly(DelayStore.RemoveResult.REMOVED);
        assertThat(store.finishAll(List.of("f1", "many-7"), System.currentTimeMillis()))
                .containsOnly(DelayStore.RemoveResult.ABSENT);
        assertThat(pumpAll())
                .as("w-due-2 still waited for its hand-over")
                .extracting(Job::getId)
                .containsExactly("w-due-2");
        assertThat(store.reserve(B, 30_000, 10)).as("r1's ready entry is stale").isEmpty();
        // w-later waits; w-due, h1 and w-due-2 are in flight
        assertCounts(counts(A, 1, 0, 3));
    }

    /** Hands pumped jobs of one topic to its ready lists, bucket by bucket. */
    private void toReadyAll(String topic, List<String> ids) {
        Map<Integer, List<String>> byBucket = new TreeMap<>();
        ids.forEach(id -> byBucket.computeIfAbsent(store.bucketOf(id), b -> new ArrayList<>())
                .add(id));
        byBucket.forEach((bucket, inBucket) ->
                assertThat(store.toReady(bucket, topic, inBucket)).isEqualTo(inBucket.size()));
    }

    @Test
    void a_forget_drops_jobs_of_every_stage_once_and_counts_each() {
        useBuckets(1);
        assertThat(store.add(List.of(job("f1", A, now - 5), job("r1", B, now - 5))))
                .hasSize(2);
        assertThat(pumpAll()).hasSize(2);
        assertThat(store.toReady(0, B, List.of("r1"))).isEqualTo(1);
        assertThat(store.add(List.of(job("w1", A, now + 3_600_000), job("w2", A, now + 3_600_000))))
                .hasSize(2);

        assertThat(store.forget(0, List.of("w1", "r1", "f1", "nobody", "f1")))
                .as("in the pool before")
                .isEqualTo(3);

        // w2 still waits; the full read behind assertCounts finds w1 in no slice
        assertCounts(counts(A, 1, 0, 0));
        assertThat(store.forget(0, List.of("w1", "f1"))).isZero();
    }

    @Test
    void a_reserve_skips_stale_ready_entries_and_takes_the_live_ones_in_order() {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            jobs.add(job("q" + i, B, now - 5));
        }
        useBuckets(1);
        assertThat(store.add(jobs)).hasSize(8);
        assertThat(pumpAll()).hasSize(8);
        assertThat(store.toReady(0, B, List.of("q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7")))
                .isEqualTo(8);
        assertThat(store.delete("q1")).isEqualTo(DelayStore.RemoveResult.REMOVED);
        assertThat(store.delete("q4")).isEqualTo(DelayStore.RemoveResult.REMOVED);

        assertThat(store.reserve(B, 30_000, 3)).extracting(Job::getId).containsExactly("q0", "q2", "q3");
        assertThat(store.reserve(B, 30_000, 10)).extracting(Job::getId).containsExactly("q5", "q6", "q7");
        assertThat(store.reserve(B, 30_000, 10)).isEmpty();
        assertCounts(counts(B, 0, 0, 6));
    }

    @Test
    void retry_release_and_sweep_put_in_flight_jobs_back_to_waiting() {
        seedThree();
        pumpAll();
        Job a1 = job("a1", A, now - 5);
        a1.setAttempts(1);
        assertThat(store.retry(store.bucketOf("a1"), List.of(a1), List.of(now + 60_000)))
                .isEqualTo(1);
        assertCounts(counts(A, 2, 0, 1, B, 0, 0, 2));

        store.toReady(store.bucketOf("b1"), B, List.of("b1"));
        List<Job> reserved = store.reserve(B, 30_000, 1);
        assertThat(reserved).extracting(Job::getId).containsExactly("b1");
        assertThat(store.release("b1", now + 60_000, System.currentTimeMillis(), 16)
                        .outcome())
                .isEqualTo(DelayStore.Released.Outcome.RELEASED);
        assertCounts(counts(A, 2, 0, 1, B, 1, 0, 1));

        // a2 and b2 have a hand-over deadline 60 s away: pump them again with none, so the sweep finds them expired
        redis.zadd(store.keys().inflight(store.bucketOf("a2")), 1, "a2");
        redis.zadd(store.keys().inflight(store.bucketOf("b2")), 1, "b2");
        Map<Integer, DelayStore.Swept> swept =
                store.sweep(IntStream.range(0, BUCKETS).boxed().toList(), 100, 16, 60_000);
        assertThat(swept.values().stream().mapToInt(s -> s.returned().size()).sum())
                .isEqualTo(2);
        assertCounts(counts(A, 3, 0, 0, B, 2, 0, 0));
    }

    @Test
    void a_dead_letter_leaves_the_counters_and_a_respawn_counts_it_waiting_again() {
        seedThree();
        pumpAll();
        // burial: the journal says Dead, then the store forgets the job
        assertThat(store.forget(store.bucketOf("b1"), List.of("b1"))).isEqualTo(1);
        assertCounts(counts(A, 1, 0, 2, B, 0, 0, 1));

        assertThat(store.respawn(List.of(job("b1", B, System.currentTimeMillis()))))
                .isEqualTo(1);
        assertCounts(counts(A, 1, 0, 2, B, 1, 0, 1));
        // a respawn of a job whose record was left behind in flight (a forget that failed) moves it, not adds it
        assertThat(store.respawn(List.of(job("b2", B, System.currentTimeMillis()))))
                .isEqualTo(1);
        assertCounts(counts(A, 1, 0, 2, B, 2, 0, 0));
    }

    @Test
    void restore_adds_count_once_and_clear_all_empties_the_counters() {
        List<Job> jobs = seedThree();
        assertThat(store.clear()).isPositive();
        assertCounts(counts());

        store.beginRestore();
        assertThat(store.addUnlessEnded(jobs)).hasSize(5);
        assertThat(store.addUnlessEnded(jobs)).as("a second restore").isEmpty();
        store.endRestore();
        assertCounts(counts(A, 3, 0, 0, B, 2, 0, 0));
    }

    @Test
    void a_bucket_count_change_moves_the_counts_with_the_jobs() {
        assertThat(new BucketLayout(nodes, new Keys(prefix, BUCKETS)).ensure()).isEmpty();
        List<Job> many = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            many.add(job("m" + i, i % 3 == 0 ? B : A, i < 40 ? now - 5 : now + 3_600_000));
        }
        store.add(many);
        pumpAll();
        for (int b = 0; b < BUCKETS; b++) {
            int bucket = b;
            store.toReady(
                    b,
                    B,
                    many.stream()
                            .filter(j -> j.getTopic().equals(B)
                                    && j.getCreateTime() < now
                                    && store.bucketOf(j.getId()) == bucket)
                            .map(Job::getId)
                            .toList());
        }
        Map<String, StageCounts> before = counted();
        assertThat(before).isEqualTo(truth());
        assertThat(before.get(B).ready()).isPositive();
        assertThat(before.get(A).inFlight()).isPositive();

        for (int buckets : new int[] {9, 2}) {
            assertThat(new BucketLayout(nodes, new Keys(prefix, buckets)).ensure())
                    .hasSize(1);
            useBuckets(buckets);
            assertCounts(before);
        }
        assertThat(keysMatching("{" + prefix + ":b[2-8]}:count"))
                .as("retired buckets' counters")
                .isEmpty();
    }

    @Test
    void a_store_written_without_counters_is_counted_at_the_first_read() {
        seedThree();
        pumpAll();
        store.toReady(store.bucketOf("b1"), B, List.of("b1"));
        Map<String, StageCounts> expected = counts(A, 1, 0, 2, B, 0, 1, 1);
        assertCounts(expected);
        // as an older version leaves Redis: jobs, no counters and no mark
        for (int b = 0; b < BUCKETS; b++) {
            redis.del(store.keys().counts(b));
        }
        redis.del(store.keys().counted());
        assertThat(counted()).isEqualTo(expected);
        assertThat(redis.exists(store.keys().counted())).isTrue();
    }

    @Test
    void topic_head_finds_the_earliest_overdue_and_next_due_job_of_one_topic() {
        long t = System.currentTimeMillis();
        store.add(List.of(
                job("x1", A, t - 50_000),
                job("x2", B, t - 90_000),
                job("x3", A, t - 20_000),
                job("x4", A, t + 40_000),
                job("x5", B, t + 10_000)));
        StoreCounters.TopicHead head = counters.topicHead(A, t);
        assertThat(head.oldestOverdue()).isEqualTo(t - 50_000);
        assertThat(head.nextDue()).isEqualTo(t + 40_000);
        assertThat(head.oldestOverdueKnown()).isTrue();
        assertThat(head.nextDueKnown()).isTrue();
        StoreCounters.TopicHead none = counters.topicHead("nobody", t);
        assertThat(none.oldestOverdue()).isNull();
        assertThat(none.nextDue()).isNull();
        assertThat(none.nextDueKnown())
                .as("every bucket's whole delay set fit in the sample")
                .isTrue();

        StoreCounters.Snapshot all = counters.snapshot(t);
        assertThat(all.oldestOverdue()).isEqualTo(t - 90_000);
        assertThat(all.nextDue()).isEqualTo(t + 10_000);
        assertThat(all.overdue()).isEqualTo(3);
    }

    @Test
    void due_minutes_count_waiting_jobs_per_minute_ahead() {
        long t = System.currentTimeMillis();
        store.add(List.of(
                job("d1", A, t - 1_000),
                job("d2", A, t + 30_000),
                job("d3", B, t + 50_000),
                job("d4", A, t + 150_000),
                job("d5", A, t + 7_200_000)));
        StoreCounters.DueMinutes due = counters.dueMinutes(t, 60);
        assertThat(due.overdue()).isEqualTo(1);
        assertThat(due.perMinute()).hasSize(60);
        assertThat(due.perMinute()[0]).isEqualTo(2);
        assertThat(due.perMinute()[1]).isZero();
        assertThat(due.perMinute()[2]).isEqualTo(1);
        assertThat(java.util.Arrays.stream(due.perMinute()).sum())
                .as("beyond the hour not counted")
                .isEqualTo(3);
    }

    @Test
    void due_minutes_past_the_budget_keep_exact_totals_and_estimate_the_spread_from_a_sample() {
        long t = System.currentTimeMillis();
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            jobs.add(job("m2-" + i, A, t + 125_000 + i * 40));
            jobs.add(job("m10-" + i, B, t + 605_000 + i * 40));
        }
        for (int i = 0; i < 50; i++) {
            jobs.add(job("late-" + i, A, t - 1_000 - i));
        }
        store.add(jobs);

        StoreCounters.DueMinutes exact = new StoreCounters(nodes, store.keys(), 10_000).dueMinutes(t, 60);
        assertThat(exact.estimated()).isFalse();
        assertThat(exact.overdue()).isEqualTo(50);
        assertThat(exact.perMinute()[2]).isEqualTo(1_000);
        assertThat(exact.perMinute()[10]).isEqualTo(1_000);

        StoreCounters.DueMinutes sampled = new StoreCounters(nodes, store.keys(), 100).dueMinutes(t, 60);
        assertThat(sampled.estimated()).isTrue();
        assertThat(sampled.overdue()).as("counted, not sampled").isEqualTo(50);
        long[] spread = sampled.perMinute();
        // each bucket's sample is scaled to its exact total: only rounding is lost
        assertThat(java.util.Arrays.stream(spread).sum()).isBetween(2_000L - 2 * BUCKETS, 2_000L + 2 * BUCKETS);
        assertThat(spread[2]).isBetween(600L, 1_400L);
        assertThat(spread[10]).isBetween(600L, 1_400L);
        for (int m = 0; m < spread.length; m++) {
            if (m != 2 && m != 10) {
                assertThat(spread[m]).as("minute %d holds no job", m).isZero();
            }
        }
    }

    private static List<String> keysMatching(String pattern) {
        return PrefixedRedis.keysMatching(redis, pattern);
    }
}
