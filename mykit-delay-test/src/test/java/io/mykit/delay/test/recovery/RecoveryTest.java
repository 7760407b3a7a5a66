package io.mykit.delay.test.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** /reStore, /reStoreJob, /clearAll and automatic recovery after Redis loses its data (a private Redis). */
class RecoveryTest {
    private static OwnRedis redis;
    private static TestGateway gateway;
    private static GatewayClient client;

    @BeforeAll
    static void start() {
        redis = TestServers.startOwnRedis();
        gateway = TestGateway.start(redis.host(), redis.port(), "mykit.delay.recovery.check-interval=300ms");
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        redis.close();
    }

    private static String topic() {
        return "rec-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Set<String> push(String topic, int n, long delay) {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < n; i++) {
            Reply r = client.push("{\"topic\":\"" + topic + "\",\"delay\":" + delay + "}");
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            ids.add(r.data().asText());
        }
        return ids;
    }

    private static Set<String> pullAll(String topic, int expected, Duration within) {
        Set<String> got = new HashSet<>();
        long end = System.currentTimeMillis() + within.toMillis();
        while (got.size() < expected && System.currentTimeMillis() < end) {
            Reply r = client.get(topic, 30_000, 1_000);
            if (!r.data().isNull()) {
                got.add(r.data().path("id").asText());
                client.finish(r.data().path("id").asText());
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
        String sample = ids.iterator().next();
        assertThat(client.lookup(sample).data().path("stage").isNull())
                .as("gone from Redis")
                .isTrue();

        JsonNode report = client.get("/reStore?expire=true").data();
        assertThat(report.path("restored").asLong()).isGreaterThanOrEqualTo(20);
        assertThat(report.path("running").asBoolean()).isFalse();
        JsonNode again = client.get("/reStore?expire=true").data();
        assertThat(again.path("restored").asLong()).as("idempotent").isZero();
        assertThat(again.path("alreadyStored").asLong()).isGreaterThanOrEqualTo(20);
        assertThat(client.get("/reStore/status").data().path("scanned").asLong())
                .isEqualTo(again.path("scanned").asLong());

        assertThat(pullAll(topic, 20, Duration.ofSeconds(30))).isEqualTo(ids);
        assertThat(client.get(topic, 30_000, 500).data().isNull())
                .as("no second copy")
                .isTrue();
    }

    @Test
    void restore_without_expire_skips_jobs_already_past_due() throws Exception {
        String topic = topic();
        String id = push(topic, 1, 300).iterator().next();
        client.get("/clearAll");
        Thread.sleep(600); // its due time passes while Redis does not hold it
        JsonNode report = client.get("/reStore?expire=false").data();
        assertThat(report.path("skippedExpired").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(client.lookup(id).data().path("stage").isNull()).isTrue();
        assertThat(client.get("/reStore?expire=true").data().path("restored").asLong())
                .isGreaterThanOrEqualTo(1);
        assertThat(pullAll(topic, 1, Duration.ofSeconds(30))).containsExactly(id);
    }

    @Test
    void restore_job_answers_for_unknown_finished_present_and_missing_jobs() {
        assertThat(client.get("/reStoreJob?jobId=no-such-job").status()).isEqualTo(404);
        String topic = topic();
        String done = push(topic, 1, 0).iterator().next();
        assertThat(pullAll(topic, 1, Duration.ofSeconds(30))).containsExactly(done);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(client.get("/reStoreJob?jobId=" + done).status())
                                .isEqualTo(409));

        String pending = push(topic, 1, 60_000).iterator().next();
        assertThat(client.get("/reStoreJob?jobId=" + pending)
                        .data()
                        .path("restored")
                        .asBoolean())
                .isFalse();
        try (Jedis jedis = new Jedis(redis.host(), redis.port(), 30_000)) {
            jedis.del("{" + gateway.keyPrefix() + ":b" + io.mykit.delay.common.util.Buckets.of(pending, 16) + "}:job");
        }
        assertThat(client.get("/reStoreJob?jobId=" + pending)
                        .data()
                        .path("restored")
                        .asBoolean())
                .isTrue();
        assertThat(client.lookup(pending).data().path("stage").asText()).isEqualTo("DELAYED");
    }

    @Test
    void redis_flushall_is_noticed_and_every_pending_job_is_restored_automatically() {
        String topic = topic();
        Set<String> ids = push(topic, 30, 2_000);
        try (Jedis jedis = new Jedis(redis.host(), redis.port(), 30_000)) {
            jedis.flushAll();
        }
        assertThat(pullAll(topic, 30, Duration.ofSeconds(20))).isEqualTo(ids);
    }

    @Test
    void redis_restart_without_persistence_is_noticed_and_nothing_is_lost() {
        String topic = topic();
        Set<String> ids = push(topic, 30, 1_000);
        redis.kill(); // a crash of a Redis that persists nothing
        redis.restart();
        assertThat(pullAll(topic, 30, Duration.ofSeconds(25))).isEqualTo(ids);
    }
}
