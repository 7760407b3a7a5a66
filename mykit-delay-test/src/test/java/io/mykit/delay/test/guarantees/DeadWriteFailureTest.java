package io.mykit.delay.test.guarantees;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.SendFailure;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TcpProxy;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One settle of a bucket holds a delivered job and a job out of tries; the journal database is cut (a TCP proxy in
 * front of the real MariaDB) just before, so the synchronous Dead write fails. The delivered job has left Redis by then
 * and must still end up Finish in the journal once the database is back; the dead one stays in flight.
 */
class DeadWriteFailureTest {
    private static TcpProxy proxy;
    private static TestGateway gateway;
    private static GatewayClient client;
    private static String database;

    @BeforeAll
    static void start() {
        proxy = new TcpProxy(TestServers.LOCALHOST, TestServers.mariaDbPort());
        database = "mykit_it_dw_" + UUID.randomUUID().toString().substring(0, 8);
        String url = TestServers.jdbcUrlThrough(proxy, database);
        // the harness's connection timeout, not a short one: under load the first connect through the proxy is slow
        gateway = TestGateway.start("spring.datasource.url=" + url, "mykit.delay.buckets=1");
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        proxy.close();
        TestServers.dropDatabase(database);
    }

    @Test
    void delivered_jobs_stay_finished_when_the_dead_write_of_the_same_settle_fails() {
        String topic = "dw-" + UUID.randomUUID().toString().substring(0, 8);
        String delivered = push(topic, "");
        String spent = push(topic, ",\"tries\":1");
        List<String> reserved = List.of(reserveId(topic), reserveId(topic));
        assertThat(reserved).containsExactlyInAnyOrder(delivered, spent);
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        Job deliveredJob = store.peek(delivered).orElseThrow().job();
        Job spentJob = store.peek(spent).orElseThrow().job();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                client.lookup(delivered).data().path("status").asText())
                        .isEqualTo("Ready"));

        DeliveryOutcomes outcomes = gateway.bean(DeliveryOutcomes.class);
        proxy.cut();
        try {
            assertThatThrownBy(() ->
                            outcomes.settle(0, List.of(deliveredJob), List.of(new SendFailure(spentJob, "refused"))))
                    .as("the Dead write fails while the database is cut")
                    .isInstanceOf(RuntimeException.class);
        } finally {
            proxy.heal();
        }
        assertThat(store.peek(delivered)).as("delivered job in Redis").isEmpty();
        assertThat(store.peek(spent))
                .as("dead job stays in flight for the sweeper")
                .isPresent();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                client.lookup(delivered).data().path("status").asText())
                        .isEqualTo(JobStatus.Finish.name()));
    }

    private static String push(String topic, String extraFields) {
        Reply reply = client.push("{\"topic\":\"" + topic + "\",\"delay\":0" + extraFields + "}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }

    private static String reserveId(String topic) {
        Reply reply = client.get(topic, 60_000, 30_000);
        assertThat(reply.data().isObject()).as(reply.toString()).isTrue();
        return reply.data().path("id").asText();
    }
}
