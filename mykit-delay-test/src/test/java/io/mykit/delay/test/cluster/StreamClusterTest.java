package io.mykit.delay.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.StreamClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Streams across two gateways in cluster mode sharing Redis and the journal: a stream on one node receives the jobs of
 * buckets the other owns (woken through the wake channel, the safety re-check being 20 s apart), and a node that stops
 * closes its streams (1001) with their held jobs back at once, for a consumer of the other node.
 */
class StreamClusterTest {
    @Test
    void a_stream_gets_jobs_of_every_node_and_a_stopping_node_gives_its_streams_jobs_back() throws Exception {
        System.setProperty("zookeeper.admin.enableServer", "false");
        String prefix = "sc-" + UUID.randomUUID().toString().substring(0, 8);
        try (TestingServer zookeeper = new TestingServer(-1, true);
                TestGateway first = TestGateway.start(cluster(zookeeper, prefix, "n1"))) {
            TestGateway second = TestGateway.start(
                    cluster(zookeeper, prefix, "n2", "spring.datasource.url=" + TestServers.jdbcUrl(first.database())));
            try {
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> first.client()
                                        .get("/cluster")
                                        .data()
                                        .path("members")
                                        .size()
                                == 2);
                String topic = "sc-" + UUID.randomUUID().toString().substring(0, 6);
                StreamClient stream = StreamClient.open(second.baseUrl(), "topics=" + topic + "&credit=100&ttr=600000");

                List<String> pushed = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    pushed.add(first.client()
                            .push("{\"topic\":\"" + topic + "\",\"delay\":300}")
                            .data()
                            .asText());
                }
                JsonNode owners = first.client().get("/cluster").data().path("buckets");
                Set<String> ownersOfPushed = new HashSet<>();
                pushed.forEach(id -> ownersOfPushed.add(
                        owners.get(first.bean(RedisDelayStore.class).bucketOf(id))
                                .path("owner")
                                .asText()));
                assertThat(ownersOfPushed).containsExactlyInAnyOrder("n1", "n2");

                assertThat(stream.jobIds(20)).containsExactlyInAnyOrderElementsOf(pushed);

                second.stop();
                assertThat(stream.closeCode()).isEqualTo(1001);
                Set<String> back = new HashSet<>();
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    first.client()
                            .get("/get/" + topic + "/batch?count=20&ttr=30000&timeout=500")
                            .data()
                            .forEach(job -> back.add(job.path("id").asText()));
                    return back.containsAll(pushed);
                });
            } finally {
                second.stop();
            }
        }
    }

    private static String[] cluster(TestingServer zk, String prefix, String node, String... more) {
        List<String> props = new ArrayList<>(List.of(
                "mykit.delay.mode=cluster",
                "mykit.delay.registry.server-list=" + zk.getConnectString(),
                "mykit.delay.registry.namespace=streams-" + prefix,
                "mykit.delay.registry.session-timeout=4s",
                "mykit.delay.registry.node-id=" + node,
                "mykit.delay.redis.key-prefix=" + prefix,
                "mykit.delay.timer.max-idle=30s",
                "mykit.delay.pull.poll-interval=20s"));
        props.addAll(List.of(more));
        return props.toArray(String[]::new);
    }
}
