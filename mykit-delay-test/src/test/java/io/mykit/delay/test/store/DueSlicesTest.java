package io.mykit.delay.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.queue.store.BucketLayout;
import io.mykit.delay.queue.store.DelaySlices;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.PumpResult;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.queue.store.StoreCounts;
import io.mykit.delay.test.support.PrefixedStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;

/**
 * Waiting jobs live in small due slices with an index of their earliest due times (DelaySlices): the slice Java
 * computes is the one the scripts write, the pump still hands jobs over in due order, the index follows a cancel of a
 * slice's earliest job, slices stay in Redis' compact encoding, and jobs an older version left in the single delay ZSET
 * move into the slices at start-up.
 */
class DueSlicesTest {
    private static final long HOUR = 3_600_000;
    private static final String TOPIC = "slices";

    @RegisterExtension
    static final PrefixedStore STORE = new PrefixedStore("slices", 1);

    private UnifiedJedis redis;
    private SingleRedis nodes;
    private Keys keys;
    private RedisDelayStore store;

    @BeforeEach
    void store() {
        redis = STORE.client();
        nodes = STORE.nodes();
        keys = STORE.keys();
        store = STORE.store();
    }

    @Test
    void every_job_waits_in_the_slice_java_computes_and_the_index_holds_each_slices_earliest() {
        long now = System.currentTimeMillis();
        Random random = new Random(7);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            // client ids of every shape: UUIDs, digits, non-ASCII
            String id = switch (i % 3) {
                case 0 -> UUID.randomUUID().toString();
                case 1 -> Integer.toString(random.nextInt(1_000_000_000));
                default -> "ordre-é-" + i;
            };
            jobs.add(job(id, now, random.nextInt(1_000_000)));
        }
        assertThat(store.add(jobs)).hasSize(jobs.size());

        Map<Integer, Double> earliest = new HashMap<>();
        for (Job job : jobs) {
            assertThat(redis.zscore(keys.dueSlice(0, job.getId()), job.getId()))
                    .as(job.getId())
                    .isEqualTo((double) job.dueTime());
            earliest.merge(DelaySlices.of(job.getId()), (double) job.dueTime(), Math::min);
        }
        Map<Integer, Double> index = new HashMap<>();
        redis.zrangeWithScores(keys.due(0), 0, -1)
                .forEach(t -> index.put(Integer.parseInt(t.getElement()), t.getScore()));
        assertThat(index).isEqualTo(earliest);
        // 3,000 jobs over 1,024 slices: each small enough for the listpack encoding
        for (int slice : index.keySet()) {
            assertThat(redis.objectEncoding(keys.due(0) + ":" + slice)).isEqualTo("listpack");
        }
        assertThat(new StoreCounts(nodes, keys).sample().get(0).pending()).isEqualTo(jobs.size());
    }

    @Test
    void the_pump_hands_over_in_due_order_across_slices() {
        long now = System.currentTimeMillis();
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            // distinct due times, pushed in shuffled order, spread over many slices
            jobs.add(job("order-" + i, now - HOUR, i * 10L));
        }
        List<Job> shuffled = new ArrayList<>(jobs);
        Collections.shuffle(shuffled, new Random(11));
        store.add(shuffled);

        List<String> handedOver = new ArrayList<>();
        PumpResult page;
        do {
            page = store.pumpDue(0, now, 37, 60_000);
            page.jobs().forEach(job -> handedOver.add(job.getId()));
        } while (!page.jobs().isEmpty());
        assertThat(handedOver)
                .containsExactlyElementsOf(jobs.stream().map(Job::getId).toList());
        assertThat(page.nextDue()).isEqualTo(-1);
        assertThat(redis.exists(keys.due(0))).isFalse();
    }

    @Test
    void cancelling_a_slices_earliest_job_moves_its_index_entry_to_the_next() {
        long now = System.currentTimeMillis();
        List<String> sameSlice = idsOfOneSlice(2);
        Job first = job(sameSlice.get(0), now, 1_000);
        Job second = job(sameSlice.get(1), now, 5_000);
        store.add(List.of(first, second));
        int slice = DelaySlices.of(first.getId());
        assertThat(redis.zscore(keys.due(0), Integer.toString(slice))).isEqualTo((double) first.dueTime());

        assertThat(store.delete(first.getId())).isEqualTo(DelayStore.RemoveResult.REMOVED);
        assertThat(redis.zscore(keys.due(0), Integer.toString(slice))).isEqualTo((double) second.dueTime());
        PumpResult early = store.pumpDue(0, first.dueTime() + 1, 10, 60_000);
        assertThat(early.jobs()).isEmpty();
        assertThat(early.nextDue()).isEqualTo(second.dueTime());

        assertThat(store.delete(second.getId())).isEqualTo(DelayStore.RemoveResult.REMOVED);
        assertThat(redis.exists(keys.due(0), keys.due(0) + ":" + slice)).isZero();
    }

    @Test
    void a_retry_later_than_the_slices_earliest_job_keeps_the_index_on_the_earliest() {
        long now = System.currentTimeMillis();
        List<String> sameSlice = idsOfOneSlice(2);
        Job sent = job(sameSlice.get(0), now - HOUR, 0);
        Job waiting = job(sameSlice.get(1), now, 2_000);
        store.add(List.of(sent, waiting));
        assertThat(store.pumpDue(0, now, 10, 60_000).jobs())
                .extracting(Job::getId)
                .containsExactly(sent.getId());

        long retryAt = now + 9_000;
        assertThat(store.retry(0, List.of(sent), List.of(retryAt))).isEqualTo(1);
        String slice = Integer.toString(DelaySlices.of(sent.getId()));
        assertThat(redis.zscore(keys.due(0), slice)).isEqualTo((double) waiting.dueTime());
        assertThat(store.pumpDue(0, waiting.dueTime(), 10, 60_000).jobs())
                .extracting(Job::getId)
                .containsExactly(waiting.getId());
        assertThat(redis.zscore(keys.due(0), slice)).isEqualTo((double) retryAt);
    }

    @Test
    void jobs_an_older_version_left_in_the_single_delay_zset_move_into_the_slices_at_start_up() {
        long now = System.currentTimeMillis();
        Keys three = new Keys(keys.layout().substring(1, keys.layout().indexOf('}')), 3);
        RedisDelayStore store3 = new RedisDelayStore(nodes, three);
        redis.set(three.layout(), "3");
        List<Job> jobs = new ArrayList<>();
        try (AbstractPipeline pipe = redis.pipelined()) {
            // more than one page of the move (1,000) in a bucket, as a version before the slices wrote them
            for (int i = 0; i < 4_500; i++) {
                Job job = job("old-" + i, now - HOUR, i);
                int bucket = store3.bucketOf(job.getId());
                pipe.hset(three.pool(bucket), job.getId(), JobCodec.encode(job));
                pipe.zadd(three.legacyDelay(bucket), job.dueTime(), job.getId());
                pipe.hincrBy(three.counts(bucket), "w:" + TOPIC, 1);
                jobs.add(job);
            }
            pipe.sync();
        }
        BucketLayout layout = new BucketLayout(nodes, three);
        assertThat(layout.holdsLegacyDelays()).isTrue();
        layout.ensure();
        assertThat(layout.holdsLegacyDelays()).isFalse();

        List<String> handedOver = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            assertThat(redis.exists(three.legacyDelay(b))).isFalse();
            PumpResult page;
            do {
                page = store3.pumpDue(b, now, 500, 60_000);
                page.jobs().forEach(job -> handedOver.add(job.getId()));
            } while (!page.jobs().isEmpty());
        }
        assertThat(handedOver)
                .containsExactlyInAnyOrderElementsOf(
                        jobs.stream().map(Job::getId).toList());
    }

    @Test
    void a_job_an_older_node_adds_to_the_single_delay_zset_after_start_up_moves_into_the_slices_at_the_next_sweep() {
        long now = System.currentTimeMillis();
        // as a node of a version before the slices, left running or started again, adds a job
        Job late = job("older-node-job", now - HOUR, 0);
        redis.hset(keys.pool(0), late.getId(), JobCodec.encode(late));
        redis.zadd(keys.legacyDelay(0), late.dueTime(), late.getId());
        redis.hincrBy(keys.counts(0), "w:" + TOPIC, 1);
        assertThat(store.pumpDue(0, now, 10, 60_000).jobs())
                .as("no new pump reads the old ZSET")
                .isEmpty();

        store.sweep(List.of(0), 100, 3, 60_000);
        assertThat(redis.exists(keys.legacyDelay(0))).isFalse();
        assertThat(store.pumpDue(0, now, 10, 60_000).jobs())
                .extracting(Job::getId)
                .containsExactly(late.getId());
    }

    private static Job job(String id, long createTime, long delay) {
        return new Job(id, TOPIC, null, null, delay, 0, 0, 0, "body of " + id, createTime);
    }

    /** Ids that share one due slice (found by trying). */
    private static List<String> idsOfOneSlice(int count) {
        Map<Integer, List<String>> bySlice = new HashMap<>();
        for (int i = 0; ; i++) {
            String id = "same-" + i;
            List<String> ids = bySlice.computeIfAbsent(DelaySlices.of(id), s -> new ArrayList<>());
            ids.add(id);
            if (ids.size() == count) {
                return ids;
            }
        }
    }
}
