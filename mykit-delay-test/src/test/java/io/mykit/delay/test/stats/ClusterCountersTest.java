package io.mykit.delay.test.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.stats.StageCounts;
import io.mykit.delay.queue.stats.StoreCounters;
import io.mykit.delay.queue.store.ClusterRedis;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.support.RedisClusterServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/**
 * The stats' reads on a 3-master Redis Cluster: counters of buckets spread over every master summed in one pipeline per
 * node, the recount script run on each bucket's own master, the completeness mark on yet another slot.
 */
class ClusterCountersTest {
    private static final int BUCKETS = 16;

    private static ClusterRedis redis;
    private static RedisDelayStore store;
    private static StoreCounters counters;

    @BeforeAll
    static void start() {
        RedisClusterServers cluster = RedisClusterServers.get();
        redis = new ClusterRedis(
                () -> new ClusterConnectionProvider(
                        new LinkedHashSet<>(cluster.nodes()),
                        DefaultJedisClientConfig.builder().build()),
                3,
                Duration.ofSeconds(6));
        Keys keys = new Keys("ccs-" + UUID.randomUUID().toString().substring(0, 8), BUCKETS);
        store = new RedisDelayStore(redis, keys);
        counters = new StoreCounters(redis, keys);
    }

    @AfterAll
    static void stop() {
        store.clear();
        redis.client().del(store.keys().counted());
        redis.close();
    }

    @Test
    void counts_due_times_and_a_recount_agree_across_every_master() {
        long now = System.currentTimeMillis();
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long due = i < 100 ? now - 1_000 : now + 120_000 + i;
            jobs.add(new Job(
                    "ccs-" + i + "-" + UUID.randomUUID(),
                    i % 2 == 0 ? "even" : "odd",
                    null,
                    null,
                    0,
                    0,
                    0,
                    0,
                    "b",
                    due));
        }
        assertThat(store.add(jobs)).hasSize(300);
        // no mark yet: the first read counts every bucket on its master, then reads the counters
        Map<String, StageCounts> first = counters.snapshot(now).topics();
        assertThat(first)
                .containsEntry("even", new StageCounts(150, 0, 0))
                .containsEntry("odd", new StageCounts(150, 0, 0));

        int pumped = 0;
        for (int b = 0; b < BUCKETS; b++) {
            pumped += store.pumpDue(b, System.currentTimeMillis(), 1_000, 60_000)
                    .jobs()
                    .size();
        }
        assertThat(pumped).isEqualTo(100);
        StoreCounters.Snapshot snapshot = counters.snapshot(System.currentTimeMillis());
        assertThat(snapshot.topics())
                .containsEntry("even", new StageCounts(100, 0, 50))
                .containsEntry("odd", new StageCounts(100, 0, 50));
        assertThat(snapshot.nextDue()).isEqualTo(now + 120_000 + 100);
        assertThat(snapshot.oldestOverdue()).isNull();

        assertThat(counters.recountAll()).isEqualTo(300);
        assertThat(counters.snapshot(System.currentTimeMillis()).topics()).isEqualTo(snapshot.topics());

        StoreCounters.DueMinutes due = counters.dueMinutes(now, 5);
        assertThat(Arrays.stream(due.perMinute()).sum()).isEqualTo(200);
        assertThat(due.perMinute()[2]).isEqualTo(200);
        StoreCounters.TopicHead odd = counters.topicHead("odd", now);
        assertThat(odd.nextDue()).isEqualTo(now + 120_000 + 101);
        assertThat(odd.nextDueKnown()).isTrue();
    }
}
