package io.mykit.delay.test.rediscluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.guarantees.HookedJournal;
import io.mykit.delay.test.support.RedisClusterServers;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Recovery against a real 3-master Redis Cluster: /clearAll then /reStore, the whole cluster flushed, one master
 * restarted empty, and a restore racing a cancel and a finish.
 */
class RedisClusterRecoveryTest {
    /** Enough buckets that every master serves some (a master without any fails at 3 * (2/3)^32). */
    private static final int BUCKETS = 32;

    private static RedisClusterServers cluster;

    @Gateway(
            value = {
                "mykit.delay.buckets=" + BUCKETS,
                "mykit.delay.pull.poll-interval=50ms",
                "mykit.delay.recovery.check-interval=300ms"
            },
            redisCluster = true)
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        cluster = RedisClusterServers.get();
        client = gateway.client();
    }

    private static String topic() {
        return "rcrec-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Set<String> push(String topic, int n, long delay) {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < n; i++) {
            Reply reply = client.push("{\"topic\":\"" + topic + "\",\"delay\":" + delay + "}");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            ids.add(reply.data().asText());
        }
        return ids;
    }

    private static Set<String> pullAll(String topic, int expected, Duration within) {
        Set<String> got = new HashSet<>();
        long end = System.currentTimeMillis() + within.toMillis();
        while (got.size() < expected && System.currentTimeMillis() < end) {
            Reply reply = client.get(topic, 30_000, 1_000);
            if (reply.data().isObject()) {
                String id = reply.data().path("id").asText();
                assertThat(got.add(id)).as("delivered twice: " + id).isTrue();
                assertThat(client.finish(id).status()).isEqualTo(200);
            }
        }
        return got;
    }

    @Test
    void clear_all_then_restore_brings_back_every_pending_job_once() {
        String topic = topic();
        Set<String> ids = push(topic, 20, 1_500);
        Reply cleared = client.get("/clearAll");
        assertThat(cleared.status()).isEqualTo(200);
        assertThat(cleared.data().path("removedKeys").asLong()).isPositive();
        assertThat(ids).allMatch(id -> client.lookup(id).data().path("stage").isNull());

        JsonNode report = client.get("/reStore?expire=true").data();
        assertThat(report.path("restored").asLong()).as(report.toString()).isGreaterThanOrEqualTo(20);
        JsonNode again = client.get("/reStore?expire=true").data();
        assertThat(again.path("restored").asLong()).as("idempotent: " + again).isZero();
        assertThat(pullAll(topic, 20, Duration.ofSeconds(30))).isEqualTo(ids);
        assertThat(client.get(topic, 30_000, 300).data().isNull())
                .as("no second copy")
                .isTrue();
    }

    @Test
    void a_cluster_that_lost_all_its_data_is_restored_automatically() {
        String topic = topic();
        Set<String> ids = push(topic, 30, 2_000);
        cluster.flushAll();
        assertThat(pullAll(topic, 30, Duration.ofSeconds(20))).isEqualTo(ids);
    }

    @Test
    void a_master_restarted_empty_is_noticed_and_its_jobs_are_restored() {
        // not the master of the gateway-wide hash tag: a single epoch key {prefix}:epoch would not see this loss
        int wideSlot = JedisClusterCRC16.getSlot("{" + gateway.keyPrefix() + "}");
        HostAndPort wide = cluster.masterServing(wideSlot);
        int victim = cluster.nodes()
                .indexOf(cluster.nodes().stream()
                        .filter(node -> !node.equals(wide))
                        .findFirst()
                        .orElseThrow());
        HostAndPort victimNode = cluster.nodes().get(victim);
        String topic = topic();
        Set<String> ids = push(topic, 60, 2_000);
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        long onVictim = ids.stream()
                .filter(id -> cluster.masterServing(
                                JedisClusterCRC16.getSlot(store.keys().pool(store.bucketOf(id))))
                        .equals(victimNode))
                .count();
        assertThat(onVictim).as("jobs held by the master that crashes").isPositive();

        cluster.crashAndRestart(victim);
        Set<String> got = pullAll(topic, 60, Duration.ofSeconds(20));
        assertThat(got).as(() -> client.notArrived(ids, got)).isEqualTo(ids);
    }

    @Test
    void a_restore_does_not_bring_back_jobs_that_ended_after_it_read_their_page() throws Exception {
        String topic = topic();
        String waiting = push(topic, 1, 3_600_000).iterator().next();
        String reserved = push(topic, 1, 0).iterator().next();
        Reply pulled = client.get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(reserved);
        awaitJournal(reserved, JobStatus.Ready);

        // the real journal, with a cancel and a finish run right after the restore read its first page
        Journal racing = HookedJournal.afterFirstPage(gateway.bean(Journal.class), () -> {
            assertThat(client.delete(waiting).status()).isEqualTo(200);
            assertThat(client.finish(reserved).status()).isEqualTo(200);
        });
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        new RecoveryService(
                        racing,
                        store,
                        store,
                        gateway.bean(StateChangeWriter.class),
                        (bucket, at) -> {},
                        Clock.systemUTC(),
                        5_000)
                .restore(true);

        assertThat(store.peek(waiting))
                .as("cancelled job in Redis after the restore")
                .isEmpty();
        assertThat(store.peek(reserved))
                .as("finished job in Redis after the restore")
                .isEmpty();
        awaitJournal(waiting, JobStatus.Delete);
        awaitJournal(reserved, JobStatus.Finish);
    }

    private static void awaitJournal(String id, JobStatus status) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.lookup(id).data().path("status").asText())
                                .as("journal status of " + id)
                                .isEqualTo(status.name()));
    }

    /** The master that CLUSTER SLOTS names for {@code slot}. */
}
