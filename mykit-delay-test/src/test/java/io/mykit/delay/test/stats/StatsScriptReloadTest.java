package io.mykit.delay.test.stats;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.stats.StoreCounters;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stats read through Lua scripts of their own: on a Redis that restarted or flushed its scripts (NOSCRIPT), each
 * read loads them and answers. A private redis-server, so that the flush touches no other test's scripts.
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
        try (JedisPooled redis = new JedisPooled(server.host(), server.port());
             SingleRedis nodes = new SingleRedis(new JedisPooled(server.host(), server.port()))) {
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

    private static Job job(String id, long due) {
        return new Job(id, "reload-topic", null, null, 0, 0, 0, 0, "body", due);
    }
}
