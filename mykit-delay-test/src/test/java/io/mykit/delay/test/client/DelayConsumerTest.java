package io.mykit.delay.test.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.client.Acknowledgement;
import io.mykit.delay.client.ConsumerListener;
import io.mykit.delay.client.ConsumerState;
import io.mykit.delay.client.DelayClient;
import io.mykit.delay.client.DelayConsumer;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.client.NonRetryableException;
import io.mykit.delay.client.ReceivedJob;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.PrefixedRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Java client's stream consumer against a real gateway's {@code /stream}. */
class DelayConsumerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Far longer than any wait of a test: a job back before it was given back, not expired. */
    private static final Duration LONG_TTR = Duration.ofMinutes(5);

    @Gateway("mykit.delay.pull.poll-interval=50ms")
    private static TestGateway gateway;

    private static DelayClient client;
    private static GatewayClient http;

    @BeforeAll
    static void connect() {
        client = DelayClient.builder().baseUri(gateway.baseUrl()).build();
        http = gateway.client();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static List<String> pushNow(String topic, int count) {
        return client.pushAll(IntStream.range(0, count)
                .mapToObj(i -> DelayJob.builder(topic).body("job " + i).build())
                .toList());
    }

    private static List<String> deadIds(String topic) {
        GatewayClient.Reply dead = http.get("/dead/" + topic);
        assertThat(dead.status()).as(dead.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        dead.data().forEach(job -> ids.add(job.path("id").asText()));
        return ids;
    }

    private static String status(String id) {
        return client.lookup(id).orElseThrow().status();
    }

    @Test
    void pushed_jobs_are_received_handled_and_finished() {
        String topic = unique("stream");
        Set<String> handled = ConcurrentHashMap.newKeySet();
        List<String> ids = pushNow(topic, 20);

        try (DelayConsumer consumer = client.consumer()
                .topics(topic)
                .concurrency(4)
                .handler(job -> handled.add(job.id()))
                .build()
                .start()) {
            await().atMost(WAIT).until(() -> handled.containsAll(ids));
            assertThat(consumer.state()).isEqualTo(ConsumerState.CONNECTED);
            await().atMost(WAIT).until(() -> ids.stream().allMatch(id -> "Finish".equals(status(id))));
        }
        assertThat(handled).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void a_job_pushed_while_the_consumer_waits_arrives_with_its_fields() {
        String topic = unique("fields");
        AtomicReference<ReceivedJob> received = new AtomicReference<>();
        try (DelayConsumer consumer =
                client.consumer().topics(topic).handler(received::set).build().start()) {
            await().atMost(WAIT).until(() -> consumer.state() == ConsumerState.CONNECTED);
            DelayJob job = DelayJob.builder(topic)
                    .body("{\"orderId\":42}")
                    .bizKey("order-42")
                    .delay(Duration.ofMillis(200))
                    .build();
            client.push(job);

            await().atMost(WAIT).until(() -> received.get() != null);
            ReceivedJob got = received.get();
            assertThat(got.id()).isEqualTo(job.id());
            assertThat(got.topic()).isEqualTo(topic);
            assertThat(got.body()).isEqualTo("{\"orderId\":42}");
            assertThat(got.bizKey()).isEqualTo("order-42");
            assertThat(got.dueTime()).isEqualTo(got.createTime().plusMillis(200));
        }
    }

    @Test
    void a_job_whose_handler_keeps_failing_is_released_until_it_is_a_dead_letter() {
        String topic = unique("failing");
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        String id = client.push(DelayJob.builder(topic).tries(3).build());

        try (DelayConsumer consumer = client.consumer()
                .topics(topic)
                .releaseBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
                .handler(job -> {
                    calls.computeIfAbsent(job.id(), key -> new AtomicInteger()).incrementAndGet();
                    throw new IllegalStateException("order service down");
                })
                .build()
                .start()) {
            await().atMost(WAIT).until(() -> deadIds(topic).contains(id));
        }
        assertThat(calls.get(id).get()).as("deliveries before it was dead").isGreaterThan(1);
        assertThat(status(id)).isEqualTo("Dead");
    }

    @Test
    void a_non_retryable_failure_buries_the_job_at_once() {
        String topic = unique("unreadable");
        AtomicInteger calls = new AtomicInteger();
        String id = client.push(DelayJob.builder(topic).tries(10).build());

        try (DelayConsumer consumer = client.consumer()
                .topics(topic)
                .handler(job -> {
                    calls.incrementAndGet();
                    throw new NonRetryableException("body is no order");
                })
                .build()
                .start()) {
            await().atMost(WAIT).until(() -> deadIds(topic).contains(id));
        }
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    void close_waits_for_the_running_handler_and_gives_back_the_jobs_not_started_at_once() throws Exception {
        String topic = unique("closing");
        List<String> ids = pushNow(topic, 5);
        Set<String> received = ConcurrentHashMap.newKeySet();
        Set<String> started = ConcurrentHashMap.newKeySet();
        Set<String> handled = ConcurrentHashMap.newKeySet();
        CountDownLatch release = new CountDownLatch(1);
        DelayConsumer consumer = client.consumer()
                .topics(topic)
                .concurrency(1)
                .credit(5)
                .ttr(LONG_TTR)
                .shutdownTimeout(WAIT)
                .listener(new ConsumerListener() {
                    @Override
                    public void onReceived(ReceivedJob job) {
                        received.add(job.id());
                    }
                })
                .handler(job -> {
                    started.add(job.id());
                    release.await();
                    handled.add(job.id());
                })
                .build()
                .start();
        await().atMost(WAIT).until(() -> received.containsAll(ids) && started.size() == 1);

        Thread closer = new Thread(consumer::close, "test-closer");
        closer.start();
        // close() waits for the running handler
        await().atMost(WAIT).until(() -> closer.getState() == Thread.State.TIMED_WAITING);
        release.countDown();
        closer.join(WAIT.toMillis());

        assertThat(closer.isAlive()).isFalse();
        assertThat(consumer.state()).isEqualTo(ConsumerState.CLOSED);
        assertThat(handled).isEqualTo(started).hasSize(1);
        String finished = handled.iterator().next();
        await().atMost(WAIT).until(() -> "Finish".equals(status(finished)));
        List<String> unstarted =
                ids.stream().filter(id -> !handled.contains(id)).toList();
        // back in the ready list within the wait, not after the five minutes of their reservation
        for (String id : unstarted) {
            await().atMost(WAIT).until(() -> client.lookup(id).orElseThrow().stage(), "READY"::equals);
        }
        // and pullable by anyone: a batch pull answers what one look finds, so pull until every one came
        Set<String> pulledIds = ConcurrentHashMap.newKeySet();
        await().atMost(WAIT).until(() -> {
            GatewayClient.Reply pulled = http.get("/get/" + topic + "/batch?count=10&ttr=60000&timeout=1000");
            pulled.data().forEach((JsonNode job) -> pulledIds.add(job.path("id").asText()));
            return pulledIds.containsAll(unstarted);
        });
        assertThat(pulledIds).containsExactlyInAnyOrderElementsOf(unstarted);
    }

    @Test
    void a_handler_running_past_half_its_ttr_keeps_its_job_reserved_by_touches(
            @Gateway("mykit.delay.buckets=1") TestGateway own) throws Exception {
        String topic = unique("touched");
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        Keys keys = new Keys(own.keyPrefix(), 1);
        try (DelayClient ownClient =
                        DelayClient.builder().baseUri(own.baseUrl()).build();
                PrefixedRedis redis = PrefixedRedis.connect()) {
            String id = ownClient.push(DelayJob.builder(topic).build());
            try (DelayConsumer consumer = ownClient
                    .consumer()
                    .topics(topic)
                    .ttr(Duration.ofSeconds(4))
                    .handler(job -> {
                        calls.incrementAndGet();
                        done.await();
                    })
                    .build()
                    .start()) {
                await().atMost(WAIT).until(() -> calls.get() == 1);
                Double reservedUntil = redis.client().zscore(keys.inflight(0), id);
                assertThat(reservedUntil).as("reservation deadline").isNotNull();

                // each touch moves the deadline on: wait for two of them, while the handler still runs
                double first = reservedUntil;
                await().atMost(WAIT).until(() -> deadline(redis, keys, id) > first);
                double second = deadline(redis, keys, id);
                await().atMost(WAIT).until(() -> deadline(redis, keys, id) > second);
                done.countDown();

                await().atMost(WAIT)
                        .until(() -> "Finish"
                                .equals(ownClient.lookup(id).orElseThrow().status()));
            }
        }
        assertThat(calls.get()).as("deliveries").isEqualTo(1);
    }

    private static double deadline(PrefixedRedis redis, Keys keys, String id) {
        Double score = redis.client().zscore(keys.inflight(0), id);
        return score == null ? Double.NaN : score;
    }

    @Test
    void a_manual_handler_acknowledges_its_jobs_itself() {
        String topic = unique("manual");
        Map<String, Acknowledgement> acks = new ConcurrentHashMap<>();
        List<String> ids = pushNow(topic, 2);

        try (DelayConsumer consumer = client.consumer()
                .topics(topic)
                .ttr(LONG_TTR)
                .manualHandler((job, ack) -> acks.put(job.id(), ack))
                .build()
                .start()) {
            await().atMost(WAIT).until(() -> acks.keySet().containsAll(ids));
            assertThat(ids)
                    .allMatch(id ->
                            "IN_FLIGHT".equals(client.lookup(id).orElseThrow().stage()));

            Acknowledgement first = acks.get(ids.get(0));
            first.touch();
            first.finish();
            assertThatThrownBy(first::finish).isInstanceOf(IllegalStateException.class);
            acks.get(ids.get(1)).bury("kept for an operator");

            await().atMost(WAIT).until(() -> "Finish".equals(status(ids.get(0))));
            await().atMost(WAIT).until(() -> deadIds(topic).contains(ids.get(1)));
        }
    }

    @Test
    void a_consumer_is_closed_before_start_and_after_close() {
        DelayConsumer consumer =
                client.consumer().topics(unique("states")).handler(job -> {}).build();
        assertThat(consumer.state()).isEqualTo(ConsumerState.CLOSED);

        consumer.start();
        await().atMost(WAIT).until(() -> consumer.state() == ConsumerState.CONNECTED);
        consumer.close();

        assertThat(consumer.state()).isEqualTo(ConsumerState.CLOSED);
    }
}
