package io.mykit.delay.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.config.RedisProperties;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.support.TestServers;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * Start-up with waiting jobs in the single delay ZSET of a version before the due slices: a node that starts alone
 * moves them into the slices; one that starts while other nodes run (they may be of the older version, pumping only the
 * old ZSET) refuses to start and leaves them where they are.
 */
class StartupLayoutLegacyTest {
    private final TestServers.RedisEndpoint endpoint = TestServers.redis();
    private final JedisPooled redis = TestServers.redisClient(endpoint.host(), endpoint.port());
    private final String prefix = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
    private final Keys keys = new Keys(prefix, 2);

    @AfterEach
    void cleanUp() {
        var mine = redis.keys("{" + prefix + "*");
        if (!mine.isEmpty()) {
            redis.del(mine.toArray(String[]::new));
        }
        redis.close();
    }

    @Test
    void a_node_starting_beside_live_nodes_refuses_old_delay_zsets_and_one_starting_alone_moves_them() {
        redis.set(keys.layout(), "2");
        redis.zadd(keys.legacyDelay(1), 1_000, "old-job");
        RedisProperties settings = new RedisProperties();
        settings.setHost(endpoint.host());
        settings.setPort(endpoint.port());
        settings.setKeyPrefix(prefix);

        assertThatThrownBy(() -> StartupLayout.ensure(settings, keys, true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stop every node of the older version");
        assertThat(redis.zscore(keys.legacyDelay(1), "old-job"))
                .as("left where it was")
                .isEqualTo(1_000.0);

        StartupLayout.ensure(settings, keys, false);
        assertThat(redis.exists(keys.legacyDelay(1))).isFalse();
        assertThat(redis.zscore(keys.dueSlice(1, "old-job"), "old-job")).isEqualTo(1_000.0);
        assertThat(redis.zscore(
                        keys.due(1),
                        keys.dueSlice(1, "old-job").substring(keys.due(1).length() + 1)))
                .as("the slice is indexed by its earliest")
                .isEqualTo(1_000.0);
    }
}
