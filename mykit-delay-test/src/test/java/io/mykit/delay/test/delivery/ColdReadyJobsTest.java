package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A job waiting in a ready list this node never handed over to (a restart, a give-back, another node) is found by a
 * look that its node's own hand-overs answered in part: a batch pull and a stream take "fewer than asked" as "nothing
 * more is ready", and nothing would wake them for that job.
 */
class ColdReadyJobsTest {
    private static final int BUCKETS = 8;

    @Test
    void a_batch_pull_takes_a_job_made_ready_before_a_restart_beside_one_made_ready_after() {
        String topic = "cold-" + UUID.randomUUID().toString().substring(0, 8);
        TestGateway first = TestGateway.start("mykit.delay.buckets=" + BUCKETS);
        TestGateway second = null;
        try {
            String before = push(first.client(), topic, "before-" + UUID.randomUUID());
            awaitReady(first.client(), before);
            first.stop();

            second = TestGateway.start(
                    "mykit.delay.buckets=" + BUCKETS,
                    "mykit.delay.redis.key-prefix=" + first.keyPrefix(),
                    "spring.datasource.url=" + TestServers.jdbcUrl(first.database()));
            RedisDelayStore store = second.bean(RedisDelayStore.class);
            int coldBucket = store.bucketOf(before);
            // an id in another bucket: the one this node hands over to is then hot, the first job's is not
            String after = IntStream.range(0, 1_000)
                    .mapToObj(i -> "after-" + i + "-" + UUID.randomUUID())
                    .filter(id -> store.bucketOf(id) != coldBucket)
                    .findFirst()
                    .orElseThrow();
            GatewayClient client = second.client();
            push(client, topic, after);
            awaitReady(client, after);

            Reply pulled = client.get("/get/" + topic + "/batch?count=2&ttr=30000&timeout=1000");
            assertThat(pulled.status()).as(pulled.toString()).isEqualTo(200);
            Set<String> ids = new HashSet<>();
            pulled.data().forEach(job -> ids.add(job.path("id").asText()));
            assertThat(ids).as(pulled.toString()).containsExactlyInAnyOrder(before, after);
        } finally {
            if (second != null) {
                second.close();
            }
            first.close();
        }
    }

    private static String push(GatewayClient client, String topic, String id) {
        Reply reply = client.push("{\"id\":\"" + id + "\",\"topic\":\"" + topic + "\",\"delay\":0}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return id;
    }

    /** Waits until the gateway handed the job over to its ready list (no puller takes it meanwhile). */
    private static void awaitReady(GatewayClient client, String id) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode job = client.lookup(id).data();
            assertThat(job.path("stage").asText()).as(job.toString()).isEqualTo("READY");
        });
    }
}
