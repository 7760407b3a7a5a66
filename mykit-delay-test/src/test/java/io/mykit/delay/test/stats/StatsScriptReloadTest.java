package io.mykit.delay.test.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.stats.StoreCounters;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * The stats read through Lua scripts of their own: on a Redis that restarted or flushed its scripts (NOSCRIPT), each
 * read loads them and answers; a lost count mark makes one recount, not one per read. A private redis-server, so that
 * the flush touches no other test's scripts and its command counts are this test's alone.
 */
class StatsScriptReloadTest {
    private OwnRedis server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void every_stats_read_answers_after_redis_flushed_its_scripts() {
        server = TestServers.startOwnRedis();
        try (JedisPooled redis = TestServers.redisClient(server.host(), server.port());
                SingleRedis nodes = new SingleRedis(TestServers.redisClient(server.host(), server.port()))) {
            Keys keys = new Keys("reload", 2);
            RedisDelayStore store = new RedisDelayStore(nodes, keys);
            long now = System.currentTimeMillis();
            store.add(List.of(job("late", now - 5_000), job("soon", now + 90_000)));
            StoreCounters counters = new StoreCounters(nodes, keys);
            counters.recountAll();

            redis.scriptFlush();
            StoreCounters.Snapshot snapshot = counters.snapshot(now);
            assertThat(snapshot.overdue()).isEqualTo(1);
            assertThat(snapshot.nextDue()).isEqualTo(now + 90_000);

            redis.scriptFlush();
            assertThat(counters.dueMinutes(now, 5).perMinute()[1]).isEqualTo(1);

            redis.scriptFlush();
            assertThat(counters.topicHead("reload-topic", now).oldestOverdue()).isEqualTo(now - 5_000);
        }
    }

    @Test
    void reads_after_the_count_mark_is_lost_run_one_recount_between_them() throws Exception {
        server = TestServers.startOwnRedis();
        try (JedisPooled redis = TestServers.redisClient(server.host(), server.port());
                SingleRedis nodes = new SingleRedis(TestServers.redisClient(server.host(), server.port()))) {
            Keys keys = new Keys("once", 4);
            RedisDelayStore store = new RedisDelayStore(nodes, keys);
            long now = System.currentTimeMillis();
            store.add(List.of(job("a", now + 60_000), job("b", now + 90_000)));
            StoreCounters counters = new StoreCounters(nodes, keys);
            long before = hscans(redis);

            // public reads at once, then the mark lost again and read again: a recount reads every bucket (HSCAN)
            redis.del(keys.counted());
            List<CompletableFuture<StoreCounters.Snapshot>> reads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                reads.add(CompletableFuture.supplyAsync(() -> counters.snapshot(now)));
            }
            for (CompletableFuture<StoreCounters.Snapshot> read : reads) {
                assertThat(read.get(10, TimeUnit.SECONDS)
                                .topics()
                                .get("reload-topic")
                                .pending())
                        .isEqualTo(2);
            }
            for (int i = 0; i < 3; i++) {
                redis.del(keys.counted());
                assertThat(counters.snapshot(now).topics().get("reload-topic").pending())
                        .isEqualTo(2);
            }
            assertThat(hscans(redis) - before)
                    .as("HSCANs: one recount of 4 buckets")
                    .isEqualTo(4);
            assertThat(counters.snapshot(now).complete())
                    .as("mark missing, recount not due yet")
                    .isFalse();

            // an operator's recount is not held back
            assertThat(counters.recountAll()).isEqualTo(2);
            assertThat(hscans(redis) - before).isEqualTo(8);
            assertThat(counters.snapshot(now).complete()).isTrue();
        }
    }

    private static long hscans(JedisPooled redis) {
        Matcher m = Pattern.compile("cmdstat_hscan:calls=(\\d+)").matcher(redis.info("commandstats"));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static Job job(String id, long due) {
        return new Job(id, "reload-topic", null, null, 0, 0, 0, 0, "body", due);
    }
}
