package io.mykit.delay.test.rediscluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.RedisClusterServers;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A master that is down costs a call to its slots one quick failure. The gateway's loops retry with their own backoff,
 * which a restore's wake-up cuts short; a client that slept between its tries (Jedis does, for up to the command's
 * whole retry time, once a node refused twice) held a bucket's timer silently past the restore of its jobs.
 */
class RedisClusterNodeDownTest {
    /** Far beyond the bound below: a client that slept up to its retry time would overrun it almost always. */
    @Gateway(
            value = {"mykit.delay.buckets=16", "mykit.delay.redis.timeout=300s"},
            redisCluster = true)
    private static TestGateway gateway;

    @Test
    void a_call_to_a_master_that_is_down_fails_at_once() {
        RedisClusterServers cluster = RedisClusterServers.get();
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        HostAndPort victim = cluster.nodes().get(0);
        int bucket = IntStream.range(0, 16)
                .filter(b -> cluster.masterServing(
                                JedisClusterCRC16.getSlot(store.keys().pool(b)))
                        .equals(victim))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no bucket on " + victim));

        cluster.whileDown(0, () -> {
            for (int call = 0; call < 3; call++) {
                long started = System.nanoTime();
                assertThatThrownBy(() -> store.pumpDueToReady(bucket, System.currentTimeMillis(), 10))
                        .isInstanceOf(StoreUnavailableException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as("call %d to a bucket of the stopped master", call)
                        .isLessThan(Duration.ofSeconds(20));
            }
        });
    }
}
