package io.mykit.delay.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.util.UUID;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two gateways in cluster mode (real ZooKeeper, Redis, MariaDB) share Redis, the journal and the 16 buckets. Their
 * timers idle 30 s and their long-polls look again only every 20 s, so what reaches a puller within its 10 s long-poll
 * was woken across nodes through the Redis wake channel.
 */
class TwoNodeClusterTest {
    private static TestingServer zookeeper;
    private static TestGateway first;
    private static TestGateway second;
    private static String namespace;
    private static String prefix;

    @BeforeAll
    static void twoNodes() throws Exception {
        System.setProperty("zookeeper.admin.enableServer", "false");
        zookeeper = new TestingServer(-1, true);
        prefix = "cr-" + UUID.randomUUID().toString().substring(0, 8);
        namespace = "two-" + prefix;
        // the first node's journal writer lingers 1 s: its Finish stays unwritten long enough for the restore to race
        // it
        first = TestGateway.start(cluster(zookeeper, prefix, namespace, "n1", "1s"));
        second = TestGateway.start(
                cluster(zookeeper, prefix, namespace, "n2", "0ms", "spring.datasource.url=" + jdbcUrlOf(first)));
        await().atMost(java.time.Duration.ofSeconds(20))
                .until(() ->
                        first.client().get("/cluster").data().path("members").size() == 2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (second != null) {
            second.stop();
        }
        if (first != null) {
            first.close();
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    @Test
    void pushes_on_one_node_wake_the_other_nodes_timers_and_long_polls() {
        GatewayClient a = first.client();
        GatewayClient b = second.client();
        String topic = "wk-" + UUID.randomUUID().toString().substring(0, 6);
        java.util.Set<String> pushed = new java.util.HashSet<>();
        for (int i = 0; i < 20; i++) {
            pushed.add(a.push("{\"topic\":\"" + topic + "\",\"delay\":300,\"body\":\"w\"}")
                    .data()
                    .asText());
        }
        java.util.Set<Integer> buckets = new java.util.HashSet<>();
        pushed.forEach(id -> buckets.add(first.bean(RedisDelayStore.class).bucketOf(id)));
        JsonNode owners = a.get("/cluster").data().path("buckets");
        java.util.Set<String> ownersOfPushed = new java.util.HashSet<>();
        buckets.forEach(
                bucket -> ownersOfPushed.add(owners.get(bucket).path("owner").asText()));
        assertThat(ownersOfPushed).as("owners of the pushed jobs' buckets").containsExactlyInAnyOrder("n1", "n2");

        java.util.Set<String> pulled = new java.util.HashSet<>();
        for (int i = 0; i < 20; i++) {
            JsonNode job = b.get(topic, 30_000, 30_000).data();
            assertThat(job.isNull())
                    .as("pull %d of 20 on the second node within its long-poll", i + 1)
                    .isFalse();
            pulled.add(job.path("id").asText());
            assertThat(b.finish(job.path("id").asText()).status()).isEqualTo(200);
        }
        assertThat(pulled).isEqualTo(pushed);

        // a batch poll on the second node, woken by a hand-over on the first (the owner of the job's bucket)
        RedisDelayStore store = first.bean(RedisDelayStore.class);
        String late = java.util.stream.IntStream.range(0, 1_000)
                .mapToObj(i -> topic + "-n1-" + i)
                .filter(id ->
                        owners.get(store.bucketOf(id)).path("owner").asText().equals("n1"))
                .findFirst()
                .orElseThrow();
        long pushedAt = System.currentTimeMillis();
        assertThat(a.push("{\"topic\":\"" + topic + "\",\"id\":\"" + late + "\",\"delay\":500}")
                        .status())
                .isEqualTo(200);
        JsonNode batch = b.get("/get/" + topic + "/batch?count=5&ttr=30000&timeout=15000")
                .data();
        assertThat(System.currentTimeMillis() - pushedAt)
                .as("woken by the hand-over, not the 20 s re-check")
                .isLessThan(5_000);
        assertThat(batch).extracting(job -> job.path("id").asText()).containsExactly(late);
    }

    @Test
    void owners_record_their_terms_again_when_redis_lost_them() {
        io.mykit.delay.queue.store.Keys keys = first.bean(RedisDelayStore.class).keys();
        io.mykit.delay.test.support.TestServers.RedisEndpoint redis = io.mykit.delay.test.support.TestServers.redis();
        try (redis.clients.jedis.Jedis jedis = new redis.clients.jedis.Jedis(redis.host(), redis.port())) {
            for (int b = 0; b < keys.buckets(); b++) {
                jedis.del(keys.owner(b));
            }
            await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
                JsonNode buckets = first.client().get("/cluster").data().path("buckets");
                for (int b = 0; b < keys.buckets(); b++) {
                    assertThat(jedis.get(keys.owner(b)))
                            .as("owner key of bucket %d", b)
                            .isEqualTo(buckets.get(b).path("token").asText());
                }
            });
        }
    }

    @Test
    void a_node_with_timers_off_is_a_member_but_owns_no_bucket() {
        try (TestGateway serving = TestGateway.start(cluster(
                zookeeper,
                prefix,
                namespace,
                "n4",
                "0ms",
                "mykit.delay.timer.enabled=false",
                "spring.datasource.url=" + jdbcUrlOf(first)))) {
            await().atMost(java.time.Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(first.client()
                                    .get("/cluster")
                                    .data()
                                    .path("members")
                                    .size())
                            .isEqualTo(3));
            // a few reconcile ticks: a bucket given to n4 would have moved by now
            await().pollDelay(java.time.Duration.ofSeconds(3))
                    .atMost(java.time.Duration.ofSeconds(10))
                    .untilAsserted(() -> {
                        java.util.Set<String> owners = new java.util.HashSet<>();
                        first.client()
                                .get("/cluster")
                                .data()
                                .path("buckets")
                                .forEach(b -> owners.add(b.path("owner").asText()));
                        assertThat(owners).containsExactlyInAnyOrder("n1", "n2");
                    });
        }
    }

    @Test
    void a_node_with_another_bucket_count_refuses_to_join_while_nodes_run() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TestGateway.start(cluster(
                        zookeeper,
                        prefix,
                        namespace,
                        "n3",
                        "0ms",
                        "mykit.delay.buckets=32",
                        "spring.datasource.url=" + jdbcUrlOf(first))))
                .hasStackTraceContaining("ZooKeeper records layout 'buckets=16 prefix=" + prefix + "'");
        assertThat(first.client().get("/cluster").data().path("members").size()).isEqualTo(2);
    }

    @Test
    void a_restore_on_one_node_skips_a_job_another_node_finished_just_before() throws Exception {
        GatewayClient a = first.client();
        String topic = "cr-" + UUID.randomUUID().toString().substring(0, 6);
        String id = a.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"body\":\"b\"}")
                .data()
                .asText();
        JsonNode pulled = a.get(topic, 30_000, 30_000).data();
        assertThat(pulled.path("id").asText()).isEqualTo(id);
        // let the Ready of the hand-over reach the journal, so only the Finish is left queued
        first.journalStatuses(id);

        assertThat(a.finish(id).status()).isEqualTo(200);
        JsonNode report = second.client().get("/reStore?expire=true").data();

        assertThat(report.path("restored").asLong())
                .as("jobs the restore re-added: %s", report)
                .isZero();
        assertThat(second.bean(RedisDelayStore.class).peek(id))
                .as("job in Redis after the restore")
                .isEmpty();
        assertThat(first.journalStatuses(id)).endsWith(JobStatus.Finish.code());
        assertThat(second.client().get(topic, 30_000, 1_500).data().isNull())
                .as("delivered again")
                .isTrue();
    }

    private static String[] cluster(
            TestingServer zk, String prefix, String namespace, String node, String linger, String... more) {
        java.util.List<String> props = new java.util.ArrayList<>(java.util.List.of(
                "mykit.delay.mode=cluster",
                "mykit.delay.registry.server-list=" + zk.getConnectString(),
                "mykit.delay.registry.namespace=" + namespace,
                "mykit.delay.registry.session-timeout=4s",
                "mykit.delay.registry.node-id=" + node,
                "mykit.delay.redis.key-prefix=" + prefix,
                "mykit.delay.journal.state-linger=" + linger,
                "mykit.delay.timer.max-idle=30s",
                "mykit.delay.pull.poll-interval=20s"));
        props.addAll(java.util.List.of(more));
        return props.toArray(String[]::new);
    }

    private static String jdbcUrlOf(TestGateway gateway) {
        return io.mykit.delay.test.support.TestServers.jdbcUrl(gateway.database());
    }
}
