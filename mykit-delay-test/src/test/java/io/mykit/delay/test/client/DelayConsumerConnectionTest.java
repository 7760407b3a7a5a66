package io.mykit.delay.test.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.client.ConsumerListener;
import io.mykit.delay.client.ConsumerState;
import io.mykit.delay.client.DelayClient;
import io.mykit.delay.client.DelayClientException;
import io.mykit.delay.client.DelayConsumer;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The consumer's connection: a tenant's token at the handshake, a refused token, a stream the gateway closes. */
class DelayConsumerConnectionTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ORDERS = "orders-client-token";

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Counts what a consumer reports about its connection. */
    private static final class Connections implements ConsumerListener {
        final AtomicInteger connected = new AtomicInteger();
        final List<Integer> disconnectCodes = new CopyOnWriteArrayList<>();

        @Override
        public void onConnected() {
            connected.incrementAndGet();
        }

        @Override
        public void onDisconnected(int code, String reason) {
            disconnectCodes.add(code);
        }
    }

    @Test
    void a_tenant_token_pushes_and_consumes_jobs_by_the_tenants_own_ids(
            @Gateway({"mykit.delay.tenants.orders.token=" + ORDERS, "mykit.delay.tenants.orders.topics=ord-*"})
                    TestGateway gateway) {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        try (DelayClient client =
                DelayClient.builder().baseUri(gateway.baseUrl()).token(ORDERS).build()) {
            String topic = unique("ord");
            DelayJob job = DelayJob.builder(topic).id(unique("order-42")).build();
            assertThat(client.push(job)).isEqualTo(job.id());

            try (DelayConsumer consumer = client.consumer()
                    .topics(topic)
                    .handler(received -> handled.add(received.id()))
                    .build()
                    .start()) {
                await().atMost(WAIT).until(() -> handled.contains(job.id()));
                await().atMost(WAIT)
                        .until(() -> "Finish"
                                .equals(client.lookup(job.id()).orElseThrow().status()));
                assertThat(consumer.state()).isEqualTo(ConsumerState.CONNECTED);
            }
        }
    }

    @Test
    void a_refused_token_is_reported_with_its_status_and_the_consumer_keeps_trying(
            @Gateway({"mykit.delay.tenants.orders.token=" + ORDERS, "mykit.delay.tenants.orders.topics=ord-*"})
                    TestGateway gateway) {
        Connections connections = new Connections();
        try (DelayClient client =
                DelayClient.builder().baseUri(gateway.baseUrl()).token("nobody").build()) {
            DelayClientException refused = catchThrowableOfType(
                    DelayClientException.class,
                    () -> client.push(DelayJob.builder(unique("ord")).build()));
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.gatewayMessage()).isNotBlank();

            DelayConsumer consumer = client.consumer()
                    .topics(unique("ord"))
                    .handler(job -> {})
                    .listener(connections)
                    .build()
                    .start();
            await().atMost(WAIT).until(() -> connections.disconnectCodes.contains(401));
            assertThat(consumer.state()).isEqualTo(ConsumerState.CONNECTING);
            assertThat(connections.connected.get()).isZero();
            consumer.close();
            assertThat(consumer.state()).isEqualTo(ConsumerState.CLOSED);
        }
    }

    @Test
    void a_stream_the_gateway_closes_is_opened_again_and_its_jobs_still_arrive(
            @Gateway("mykit.delay.stream.idle-timeout=1s") TestGateway gateway) {
        Connections connections = new Connections();
        Set<String> handled = ConcurrentHashMap.newKeySet();
        String topic = unique("reopen");
        try (DelayClient client =
                        DelayClient.builder().baseUri(gateway.baseUrl()).build();
                DelayConsumer consumer = client.consumer()
                        .topics(topic)
                        // pings far apart: the gateway closes the stream as idle (4408) again and again
                        .heartbeat(Duration.ofSeconds(30), Duration.ofSeconds(60))
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofSeconds(1))
                        .listener(connections)
                        .handler(job -> handled.add(job.id()))
                        .build()
                        .start()) {
            await().atMost(WAIT)
                    .until(() -> connections.disconnectCodes.contains(4408) && connections.connected.get() >= 2);

            List<String> ids = client.pushAll(List.of(
                    DelayJob.builder(topic).build(), DelayJob.builder(topic).build()));

            await().atMost(WAIT).until(() -> handled.containsAll(ids));
            await().atMost(WAIT)
                    .until(() -> ids.stream()
                            .allMatch(id -> "Finish"
                                    .equals(client.lookup(id).orElseThrow().status())));
        }
    }
}
