package io.mykit.delay.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.queue.stats.StoreCounters;
import io.mykit.delay.queue.store.BucketLayout;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.PrefixedStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;

/**
 * Jobs in the compact record and jobs whose JSON record a previous version left in Redis (an in-place upgrade) go
 * through the same scripts on a real Redis: pumped with every field, counted per topic, and their ttl and tries read by
 * sweep and release.
 */
class RecordFormatTest {
    private static final int B = 0;
    private static final String TOPIC = "orders";

    @RegisterExtension
    static final PrefixedStore STORE = new PrefixedStore("record", 1);

    private UnifiedJedis redis;
    private SingleRedis nodes;
    private Keys keys;
    private RedisDelayStore store;
    private StoreCounters counters;

    @BeforeEach
    void store() {
        redis = STORE.client();
        nodes = STORE.nodes();
        keys = STORE.keys();
        store = STORE.store();
        counters = new StoreCounters(nodes, keys);
    }

    @Test
    void a_json_record_left_by_the_previous_version_is_delivered_and_counted_after_the_upgrade() {
        long now = System.currentTimeMillis();
        Job old = new Job("old-1", TOPIC, "paid", "biz-1", 1_000, 5, 0, 3, "{\"amount\":7}", now - 60_000);
        old.setAttempts(1);
        writtenByThePreviousVersion(old);
        Job fresh = new Job("new-1", TOPIC, null, null, 1_000, 0, 0, 0, "plain body", now - 50_000);
        store.add(List.of(fresh));
        assertThat(redis.hget(keys.pool(B), "new-1")).startsWith("~");
        assertThat(redis.hget(keys.pool(B), "old-1")).startsWith("{");
        assertThat(redis.hgetAll(keys.counts(B))).containsExactlyEntriesOf(Map.of("w:" + TOPIC, "2"));
        assertThat(counters.topicHead(TOPIC, now).oldestOverdue())
                .as("topic_head reads the old record's topic")
                .isEqualTo(old.dueTime());

        List<Job> pumped = store.pumpDue(B, now, 10, 30_000).jobs();

        assertThat(pumped).extracting(Job::getId).containsExactly("old-1", "new-1");
        // the pump sets the due time each had at its hand-over; the rest is the record as written
        assertThat(pumped.get(0))
                .usingRecursiveComparison()
                .ignoringFields("handOverDue")
                .isEqualTo(old);
        assertThat(pumped.get(1))
                .usingRecursiveComparison()
                .ignoringFields("handOverDue")
                .isEqualTo(fresh);
        assertThat(pumped).extracting(Job::handOverDue).containsExactly(old.dueTime(), fresh.dueTime());
        assertThat(redis.hgetAll(keys.counts(B))).containsExactlyEntriesOf(Map.of("f:" + TOPIC, "2"));
        assertThat(store.forget(B, List.of("old-1", "new-1"))).isEqualTo(2);
        assertThat(redis.exists(keys.counts(B))).isFalse();
    }

    @Test
    void sweep_reads_the_ttl_of_either_format() {
        long now = System.currentTimeMillis();
        // created two minutes ago, due a minute ago, allowed to live 1 s past its due time: spent
        Job oldExpired = new Job("old-ttl", TOPIC, null, null, 60_000, 0, 1_000, 0, "b", now - 120_000);
        Job newExpired = new Job("new-ttl", TOPIC, null, null, 60_000, 0, 1_000, 0, "b", now - 120_000);
        Job oldLiving = new Job("old-live", TOPIC, null, null, 60_000, 0, 0, 0, "b", now - 120_000);
        Job newLiving = new Job("new-live", TOPIC, null, null, 60_000, 0, 0, 0, "b", now - 120_000);
        // due a minute ago thanks to its priority, so its 90 s ttl has not run out
        Job oldPriority = new Job("old-prio", TOPIC, null, null, 0, 60_000, 90_000, 0, "b", now - 120_000);
        Job newPriority = new Job("new-prio", TOPIC, null, null, 0, 60_000, 90_000, 0, "b", now - 120_000);
        writtenByThePreviousVersion(oldExpired);
        writtenByThePreviousVersion(oldLiving);
        writtenByThePreviousVersion(oldPriority);
        store.add(List.of(newExpired, newLiving, newPriority));
        assertThat(store.pumpDue(B, now, 10, 0).jobs()).hasSize(6);

        DelayStore.Swept swept = store.sweep(List.of(B), 10, 16, 60_000).get(B);

        assertThat(swept.spent()).extracting(Job::getId).containsExactlyInAnyOrder("old-ttl", "new-ttl");
        assertThat(swept.returned()).containsExactlyInAnyOrder("old-live", "new-live", "old-prio", "new-prio");
        assertThat(redis.hgetAll(keys.counts(B)))
                .containsEntry("w:" + TOPIC, "4")
                .containsEntry("f:" + TOPIC, "2");
    }

    @Test
    void release_reads_the_tries_of_either_format() {
        long now = System.currentTimeMillis();
        Job oldOnce = new Job("old-once", TOPIC, null, null, 0, 0, 0, 1, "b", now - 10_000);
        Job newOnce = new Job("new-once", TOPIC, null, null, 0, 0, 0, 1, "b", now - 10_000);
        Job oldTwice = new Job("old-twice", TOPIC, null, null, 0, 0, 0, 2, "b", now - 10_000);
        Job newTwice = new Job("new-twice", TOPIC, null, null, 0, 0, 0, 2, "b", now - 10_000);
        writtenByThePreviousVersion(oldOnce);
        writtenByThePreviousVersion(oldTwice);
        store.add(List.of(newOnce, newTwice));
        List<String> pumped = store.pumpDue(B, now, 10, 30_000).jobs().stream()
                .map(Job::getId)
                .toList();
        assertThat(store.toReady(B, TOPIC, pumped)).isEqualTo(4);
        assertThat(store.reserve(TOPIC, 30_000, 10)).hasSize(4);

        for (String spent : List.of("old-once", "new-once")) {
            DelayStore.Released released = store.release(spent, now, now, 16);
            assertThat(released.outcome()).as(spent).isEqualTo(DelayStore.Released.Outcome.SPENT);
            assertThat(released.job().getId()).isEqualTo(spent);
        }
        for (String again : List.of("old-twice", "new-twice")) {
            assertThat(store.release(again, now, now, 16).outcome())
                    .as(again)
                    .isEqualTo(DelayStore.Released.Outcome.RELEASED);
        }
    }

    @Test
    void a_store_told_to_keep_json_records_writes_what_the_previous_version_reads() {
        RedisDelayStore jsonWriter = new RedisDelayStore(nodes, keys, new FenceTokens(1), false);
        long now = System.currentTimeMillis();
        Job job = new Job("json-1", TOPIC, null, null, 0, 0, 0, 2, "b", now - 1_000);

        jsonWriter.add(List.of(job));

        assertThat(redis.hget(keys.pool(B), "json-1")).startsWith("{\"id\":\"json-1\",\"topic\":\"" + TOPIC + "\"");
        assertThat(store.pumpDue(B, now, 10, 30_000).jobs())
                .singleElement()
                .usingRecursiveComparison()
                .ignoringFields("handOverDue")
                .isEqualTo(job);
        assertThat(jsonWriter.retry(B, List.of(job), List.of(now + 60_000))).isEqualTo(1);
        assertThat(redis.hget(keys.pool(B), "json-1")).startsWith("{");
    }

    /**
     * What a gateway before the compact record left in Redis for a waiting job: JSON record, due score in the single
     * delay ZSET, count; then the start-up step that moves such jobs into the due slices.
     */
    private void writtenByThePreviousVersion(Job job) {
        redis.hset(keys.pool(B), job.getId(), JobCodec.encodeJson(job));
        redis.zadd(keys.legacyDelay(B), job.dueTime(), job.getId());
        redis.hincrBy(keys.counts(B), "w:" + job.getTopic(), 1);
        new BucketLayout(nodes, keys).ensure();
        assertThat(redis.exists(keys.legacyDelay(B))).isFalse();
    }
}
