package io.mykit.delay.test.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
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
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * A gateway with 16 buckets takes jobs and stops; one with 32 buckets starts on the same Redis prefix and journal.
 * Every pending job is delivered once through batch pulls; lookups and cancels find the jobs that changed bucket. The
 * one at-least-once case: jobs reserved before the stop and never finished are handed out again after their ttr. Jobs
 * still reserved at the start are found in flight, refuse a cancel, and finish.
 */
class BucketResizeGatewayTest {
    private static final int DUE_NOW = 2_000;
    private static final int DUE_LATER = 2_999;
    private static final int RESERVED_BEFORE_STOP = 300;
    private static final long RESERVED_TTR_MS = 3_000;
    private static final int HELD = 20;
    private static final long HELD_TTR_MS = 300_000;
    private static final String POLL = "mykit.delay.pull.poll-interval=50ms";

    private final String topic = "resize-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void jobs_pushed_with_16_buckets_are_delivered_once_by_a_gateway_restarted_with_32() {
        long start = System.nanoTime();
        TestGateway first = TestGateway.start("mykit.delay.buckets=16", POLL);
        try (JedisPooled redis = TestServers.redisClient(
                TestServers.redis().host(), TestServers.redis().port())) {
            try {
                resizeAndDrain(first, redis);
            } finally {
                // stops the gateway if a failure came before its planned stop; deletes the keys the second gateway
                // used too (they share the first one's prefix) and the journal
                first.close();
            }
        }
        System.out.printf("BucketResizeGatewayTest: %d ms%n", (System.nanoTime() - start) / 1_000_000);
    }

    private void resizeAndDrain(TestGateway first, JedisPooled redis) {
        GatewayClient client = first.client();
        Set<String> pending = new HashSet<>(pushBatches(client, DUE_NOW, 0));
        pending.addAll(pushBatches(client, DUE_LATER, 5_000));
        String cancelled = idChangingBucket("resize-cancel");
        Reply pushed = client.push("{\"topic\":\"" + topic + "\",\"id\":\"" + cancelled + "\",\"delay\":60000}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        Keys keys16 = new Keys(first.keyPrefix(), 16);
        await().atMost(Duration.ofSeconds(30)).until(() -> readyCount(redis, keys16) >= DUE_NOW);
        // short reservations come back after their ttr (the at-least-once case); held ones are still out after the
        // start
        List<String> expiring = reserve(client, RESERVED_BEFORE_STOP, RESERVED_TTR_MS);
        List<String> held = reserve(client, HELD, HELD_TTR_MS);
        held.forEach(pending::remove);
        first.stop();

        TestGateway second = TestGateway.start(
                "mykit.delay.buckets=32",
                POLL,
                "mykit.delay.redis.key-prefix=" + first.keyPrefix(),
                "spring.datasource.url=" + TestServers.jdbcUrl(first.database()));
        try {
            assertThat(redis.get(keys16.layout())).isEqualTo("32");
            Keys keys32 = new Keys(first.keyPrefix(), 32);
            assertThat(IntStream.range(0, 32).filter(b -> !redis.exists(keys32.epoch(b))))
                    .as("buckets without an epoch mark after the migration")
                    .isEmpty();
            GatewayClient moved = second.client();
            String heldMoved = held.stream()
                    .filter(BucketResizeGatewayTest::changesBucket)
                    .findFirst()
                    .orElseThrow();
            assertThat(moved.lookup(heldMoved).data().path("stage").asText()).isEqualTo("IN_FLIGHT");
            assertThat(moved.delete(heldMoved).status())
                    .as("a reserved job is not cancelled")
                    .isEqualTo(409);
            assertThat(finish(moved, held))
                    .as("held reservations finished where they moved")
                    .isEmpty();
            assertThat(moved.lookup(cancelled).data().path("stage").asText()).isEqualTo("DELAYED");
            assertThat(moved.delete(cancelled).status()).isEqualTo(200);
            assertThat(moved.lookup(cancelled).data().path("stage").isNull())
                    .as("gone from Redis")
                    .isTrue();
            assertThat(moved.lookup(cancelled).data().path("status").asText()).isEqualTo("Delete");

            Map<String, Integer> received = drain(moved, pending);
            assertThat(received.keySet()).isEqualTo(pending).containsAll(expiring);
            assertThat(received)
                    .as("each delivered once after the restart")
                    .allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
            assertThat(pull(moved, 100, 30_000, 1_500))
                    .as("no second copy, nothing cancelled")
                    .isEmpty();
            // the watch checked the marks at start, seconds ago: a resize is no Redis loss
            JsonNode view = moved.get("/cluster").data();
            assertThat(view.path("restores").isNumber()).as(view.toString()).isTrue();
            assertThat(view.path("restores").asLong()).as("automatic restores").isZero();
            assertThat(second.bean(RecoveryService.class).status())
                    .as("no restore ran")
                    .isNull();
        } finally {
            second.close();
        }
    }

    /** Reserves exactly {@code count} jobs for {@code ttrMs}. */
    private List<String> reserve(GatewayClient client, int count, long ttrMs) {
        List<String> ids = new ArrayList<>();
        while (ids.size() < count) {
            ids.addAll(pull(client, count - ids.size(), ttrMs, 1_000));
        }
        return ids;
    }

    /** Finishes the jobs in one call; returns the refusals (id -> reason). */
    private static JsonNode finish(GatewayClient client, List<String> ids) {
        Reply reply = client.raw(
                "POST",
                "/finish/batch",
                "application/json",
                ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]")));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.data().path("finished")).as(reply.toString()).hasSize(ids.size());
        return reply.data().path("refused");
    }

    /** Pulls and finishes until every pending job came or 60 s passed; how often each id came. */
    private Map<String, Integer> drain(GatewayClient client, Set<String> pending) {
        Map<String, Integer> received = new HashMap<>();
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!received.keySet().containsAll(pending) && System.nanoTime() < end) {
            List<String> ids = pull(client, 200, 30_000, 1_000);
            ids.forEach(id -> received.merge(id, 1, Integer::sum));
            if (!ids.isEmpty()) {
                assertThat(finish(client, ids)).isEmpty();
            }
        }
        return received;
    }

    private List<String> pull(GatewayClient client, int count, long ttrMs, long timeoutMs) {
        Reply reply = client.get("/get/" + topic + "/batch?count=" + count + "&ttr=" + ttrMs + "&timeout=" + timeoutMs);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        reply.data().forEach(job -> ids.add(job.path("id").asText()));
        return ids;
    }

    private List<String> pushBatches(GatewayClient client, int count, long delayMs) {
        List<String> ids = new ArrayList<>(count);
        for (int from = 0; from < count; from += 1_000) {
            String jobs = IntStream.range(from, Math.min(from + 1_000, count))
                    .mapToObj(i -> "{\"topic\":\"" + topic + "\",\"delay\":" + delayMs + ",\"body\":\"" + i + "\"}")
                    .collect(Collectors.joining(",", "[", "]"));
            Reply reply = client.pushBatch(jobs);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            reply.data().forEach(id -> ids.add(id.asText()));
        }
        return ids;
    }

    private long readyCount(JedisPooled redis, Keys keys) {
        return IntStream.range(0, keys.buckets())
                .mapToLong(b -> redis.llen(keys.ready(b, topic)))
                .sum();
    }

    private static boolean changesBucket(String id) {
        return Buckets.of(id, 16) != Buckets.of(id, 32);
    }

    private static String idChangingBucket(String base) {
        return IntStream.iterate(0, n -> n + 1)
                .mapToObj(n -> base + "-" + n)
                .filter(BucketResizeGatewayTest::changesBucket)
                .findFirst()
                .orElseThrow();
    }
}
