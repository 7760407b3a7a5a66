package io.mykit.delay.test.rediscluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.RedisClusterServers;
import java.time.Duration;
import java.util.UUID;
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
    private static final int BUCKETS = 16;

    /** The timeout is far beyond the bound below: a client that slept up to its retry time would overrun it. */
    @Gateway(
            value = {"mykit.delay.buckets=" + BUCKETS, "mykit.delay.redis.timeout=300s"},
            redisCluster = true)
    private static TestGateway gateway;

    @Test
    void a_batch_pull_answers_with_what_the_masters_that_are_up_gave() {
        RedisClusterServers cluster = RedisClusterServers.get();
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        // a bucket up, looked at before one of the stopped master (a small set of ints iterates in order)
        int victim = -1;
        int up = -1;
        int down = -1;
        for (int master = 0; master < cluster.nodes().size() && down < 0; master++) {
            victim = master;
            up = firstBucket(0, master, false);
            down = up < 0 ? -1 : firstBucket(up + 1, master, true);
        }
        assertThat(down).as("a bucket off a master before one on it").isNotNegative();
        String topic = "nodedown-" + UUID.randomUUID().toString().substring(0, 8);
        GatewayClient client = gateway.client();
        String onUp = pushReady(client, store, topic, up);
        pushReady(client, store, topic, down);

        cluster.whileDown(victim, () -> {
            Reply pulled = client.get("/get/" + topic + "/batch?count=2&ttr=60000&timeout=1000");
            assertThat(pulled.status()).as(pulled.toString()).isEqualTo(200);
            assertThat(pulled.data().findValuesAsText("id"))
                    .as(pulled.toString())
                    .containsExactly(onUp);
        });
    }

    /** The first bucket from {@code from} on served by master {@code master} ({@code on}) or by another; -1 if none. */
    private static int firstBucket(int from, int master, boolean on) {
        RedisClusterServers cluster = RedisClusterServers.get();
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        HostAndPort node = cluster.nodes().get(master);
        return IntStream.range(from, BUCKETS)
                .filter(b -> cluster.masterServing(
                                        JedisClusterCRC16.getSlot(store.keys().pool(b)))
                                .equals(node)
                        == on)
                .findFirst()
                .orElse(-1);
    }

    /** Pushes a job due now whose id falls in {@code bucket}, and waits until it waits in its ready list. */
    private static String pushReady(GatewayClient client, RedisDelayStore store, String topic, int bucket) {
        String id = IntStream.range(0, 10_000)
                .mapToObj(i -> topic + "-" + i)
                .filter(candidate -> store.bucketOf(candidate) == bucket)
                .findFirst()
                .orElseThrow();
        Reply pushed = client.push("{\"id\":\"" + id + "\",\"topic\":\"" + topic + "\",\"delay\":0}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("stage").asText())
                                .isEqualTo("READY"));
        return id;
    }

    @Test
    void a_call_to_a_master_that_is_down_fails_at_once() {
        RedisClusterServers cluster = RedisClusterServers.get();
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        int bucket = firstBucket(0, 0, true);
        assertThat(bucket).as("a bucket on master 0").isNotNegative();

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
