package io.mykit.delay.test.rediscluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.RedisClusterServers;
import io.mykit.delay.test.support.TestServers;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The delivery path against a real 3-master Redis Cluster: pull push/pull/finish, cancel, reservation expiry, a 300-job
 * batch, an ActiveMQ hand-over, scripts lost on every master, and where each bucket's keys live.
 */
class RedisClusterDeliveryTest {
    /** 32 buckets: the chance that the hash tags miss one of the 3 masters is 3 * (2/3)^32, about 6e-6. */
    private static final int BUCKETS = 32;

    private static RedisClusterServers cluster;
    private static TestActiveMq broker;
    private static TestGateway gateway;
    private static GatewayClient client;

    @BeforeAll
    static void start() {
        cluster = RedisClusterServers.get();
        broker = TestActiveMq.start();
        gateway = TestGateway.startOnCluster(
                cluster,
                "mykit.delay.buckets=" + BUCKETS,
                "mykit.delay.pull.poll-interval=50ms",
                "mykit.delay.dispatch.routes[amq-*]=activemq",
                "mykit.delay.activemq.broker-url=" + broker.brokerUrl());
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        broker.close();
    }

    private static String topic(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String push(String topic, long delay) {
        Reply reply = client.push("{\"topic\":\"" + topic + "\",\"delay\":" + delay + ",\"body\":\"b\"}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }

    @Test
    void pushed_job_is_pulled_after_its_delay_and_finished() throws Exception {
        String topic = topic("rc");
        long pushedAt = System.currentTimeMillis();
        // seconds of delay, so a slow machine cannot let it fall due before the next call
        String id = push(topic, 3_000);
        assertThat(client.get(topic, 30_000, 0).data().isNull())
                .as("not due yet")
                .isTrue();
        Reply pulled = client.get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(id);
        assertThat(System.currentTimeMillis() - pushedAt).isGreaterThanOrEqualTo(3_000);
        assertThat(client.finish(id).status()).isEqualTo(200);
        // WaitPut(0) (the push; its row is Delay from the start) -> Ready(2) -> Finish(3)
        assertThat(gateway.journalStatuses(id)).containsExactly(0, 2, 3);
        assertThat(client.get(topic, 30_000, 300).data().isNull())
                .as("finished job is never delivered again")
                .isTrue();
    }

    @Test
    void cancelled_job_is_never_delivered_and_an_expired_reservation_is_delivered_again() throws Exception {
        String topic = topic("rc");
        String cancelled = push(topic, 300);
        assertThat(client.delete(cancelled).status()).isEqualTo(200);
        assertThat(client.delete(cancelled).status()).as("second cancel").isEqualTo(409);

        String id = push(topic, 0);
        // a ttr of seconds, so the next call comes within it on a loaded machine; the redelivery is waited for
        assertThat(client.get(topic, 3_000, 30_000).data().path("id").asText()).isEqualTo(id);
        assertThat(client.get(topic, 3_000, 0).data().isNull())
                .as("reserved, so not handed to a second puller")
                .isTrue();
        assertThat(client.get(topic, 30_000, 30_000).data().path("id").asText())
                .as("after its ttr")
                .isEqualTo(id);
        assertThat(client.finish(id).status()).isEqualTo(200);
        // Ready -> (ttr passed) Delay -> Ready -> Finish; the log is in write order, and the sweeper's return is
        // written by another writer than the Ready changes, so only what was logged is checked, not its order
        java.util.List<Integer> log = gateway.journalStatuses(id);
        assertThat(log.stream().filter(code -> code == 2).count())
                .as("Ready rows in %s", log)
                .isEqualTo(2);
        assertThat(log).as("returned after its ttr, then finished").contains(1, 3);
        assertThat(client.lookup(id).data().path("status").asText()).isEqualTo("Finish");
        assertThat(client.lookup(cancelled).data().path("status").asText()).isEqualTo("Delete");
    }

    @Test
    void a_batch_spread_over_every_master_is_delivered_once_and_finished_in_batches() {
        String topic = topic("rc");
        Set<String> ids = pushBatch(topic, 300, 0);
        Set<String> received = new HashSet<>();
        long deadline = System.currentTimeMillis() + 30_000;
        while (received.size() < ids.size() && System.currentTimeMillis() < deadline) {
            Reply batch = client.get("/get/" + topic + "/batch?count=100&ttr=30000&timeout=1000");
            assertThat(batch.status()).as(batch.toString()).isEqualTo(200);
            List<String> pulled = new ArrayList<>();
            batch.data().forEach(job -> pulled.add(job.path("id").asText()));
            assertThat(received).as("delivered twice").doesNotContainAnyElementsOf(pulled);
            received.addAll(pulled);
            String finish = pulled.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]"));
            assertThat(client.raw("POST", "/finish/batch", "application/json", finish)
                            .status())
                    .isEqualTo(200);
        }
        assertThat(received).isEqualTo(ids);
    }

    @Test
    void due_job_is_handed_to_activemq_and_journaled_finish() throws Exception {
        String topic = topic("amq");
        Connection connection = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(topic));
            String id = push(topic, 200);
            TextMessage message = (TextMessage) consumer.receive(30_000);
            assertThat(message).as("message on queue " + topic).isNotNull();
            assertThat(message.getStringProperty("jobId")).isEqualTo(id);
            assertThat(message.getText()).isEqualTo("b");
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(
                                    client.lookup(id).data().path("status").asText())
                            .isEqualTo("Finish"));
        } finally {
            connection.close();
        }
    }

    @Test
    void scripts_lost_on_every_master_are_loaded_again_on_each_node() throws Exception {
        cluster.flushScripts();
        String topic = topic("rc");
        // single calls (reserve, finish) and per-node pipelines (add, sweep) both meet NOSCRIPT first
        Set<String> ids = pushBatch(topic, 40, 0);
        Set<String> received = new HashSet<>();
        long deadline = System.currentTimeMillis() + 60_000;
        while (received.size() < ids.size() && System.currentTimeMillis() < deadline) {
            Reply reply = client.get(topic, 30_000, 1_000);
            if (reply.data().isObject()) {
                received.add(reply.data().path("id").asText());
                assertThat(client.finish(reply.data().path("id").asText()).status())
                        .isEqualTo(200);
            }
        }
        assertThat(received).isEqualTo(ids);
    }

    @Test
    void every_bucket_keeps_its_keys_in_the_slot_of_its_hash_tag_and_jobs_spread_over_every_master() throws Exception {
        String topic = topic("rc");
        pushBatch(topic, 200, 3_600_000); // delay ZSETs and the pool
        pushBatch(topic, 100, 0); // ready lists
        Reply reserved = client.get("/get/" + topic + "/batch?count=20&ttr=60000&timeout=5000");
        assertThat(reserved.data().size())
                .as("in flight and reservation counts")
                .isPositive();
        Keys keys = gateway.bean(RedisDelayStore.class).keys();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> keysByMaster(keys).values().stream()
                        .flatMap(List::stream)
                        .anyMatch(key -> key.contains(":ready:")));

        Map<HostAndPort, List<String>> byMaster = keysByMaster(keys);
        Map<HostAndPort, Long> jobsByMaster = new HashMap<>();
        for (Map.Entry<HostAndPort, List<String>> entry : byMaster.entrySet()) {
            try (Jedis jedis = TestServers.jedis(entry.getKey())) {
                Set<Integer> served = servedSlots(jedis, entry.getKey());
                for (String key : entry.getValue()) {
                    int bucket = bucketOf(key, keys);
                    int tagSlot = JedisClusterCRC16.getSlot(keys.pool(bucket));
                    assertThat(JedisClusterCRC16.getSlot(key))
                            .as("slot of " + key)
                            .isEqualTo(tagSlot);
                    assertThat(jedis.clusterKeySlot(key))
                            .as("Redis' slot of " + key)
                            .isEqualTo(tagSlot);
                    assertThat(served)
                            .as(entry.getKey() + " serves the slot of " + key)
                            .contains(tagSlot);
                    if (key.equals(keys.pool(bucket))) {
                        jobsByMaster.merge(entry.getKey(), jedis.hlen(key), Long::sum);
                    }
                }
            }
        }
        assertThat(jobsByMaster.keySet())
                .as("masters holding jobs")
                .containsExactlyInAnyOrderElementsOf(cluster.nodes());
        assertThat(jobsByMaster.values()).allMatch(n -> n > 0);
        Set<Integer> bucketsSeen = byMaster.values().stream()
                .flatMap(List::stream)
                .map(key -> bucketOf(key, keys))
                .collect(Collectors.toSet());
        Map<Integer, Long> mastersPerBucket = bucketsSeen.stream()
                .collect(Collectors.toMap(
                        b -> b,
                        b -> byMaster.values().stream()
                                .filter(list -> list.stream().anyMatch(k -> bucketOf(k, keys) == b))
                                .count()));
        assertThat(mastersPerBucket.values())
                .as("masters holding keys of one bucket")
                .allMatch(n -> n == 1);
    }

    private static Set<String> pushBatch(String topic, int n, long delay) {
        String body = IntStream.range(0, n)
                .mapToObj(i -> "{\"topic\":\"" + topic + "\",\"delay\":" + delay + "}")
                .collect(Collectors.joining(",", "[", "]"));
        Reply pushed = client.pushBatch(body);
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        Set<String> ids = new HashSet<>();
        pushed.data().forEach(id -> ids.add(id.asText()));
        assertThat(ids).hasSize(n);
        return ids;
    }

    /** Every key of this gateway's prefix, by the master that holds it (a SCAN on each master). */
    private static Map<HostAndPort, List<String>> keysByMaster(Keys keys) {
        String match = "{" + gateway.keyPrefix() + ":b*";
        Map<HostAndPort, List<String>> byMaster = new HashMap<>();
        for (HostAndPort node : cluster.nodes()) {
            List<String> found = new ArrayList<>();
            try (Jedis jedis = TestServers.jedis(node)) {
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page =
                            jedis.scan(cursor, new ScanParams().match(match).count(1000));
                    found.addAll(page.getResult());
                    cursor = page.getCursor();
                } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
            }
            byMaster.put(node, found);
        }
        return byMaster;
    }

    /** The bucket of a key named {prefix:bI}:... */
    private static int bucketOf(String key, Keys keys) {
        String tag = key.substring(0, key.indexOf('}'));
        int bucket = Integer.parseInt(tag.substring(tag.lastIndexOf(":b") + 2));
        assertThat(bucket).as("bucket of " + key).isBetween(0, keys.buckets() - 1);
        return bucket;
    }

    /** The slots {@code self} serves, from CLUSTER SLOTS. */
    private static Set<Integer> servedSlots(Jedis jedis, HostAndPort self) {
        Set<Integer> slots = new HashSet<>();
        for (Object range : jedis.clusterSlots()) {
            List<?> entry = (List<?>) range;
            List<?> master = (List<?>) entry.get(2);
            HostAndPort address =
                    new HostAndPort(new String((byte[]) master.get(0)), ((Long) master.get(1)).intValue());
            if (address.equals(self)) {
                for (long slot = (Long) entry.get(0); slot <= (Long) entry.get(1); slot++) {
                    slots.add((int) slot);
                }
            }
        }
        return slots;
    }
}
