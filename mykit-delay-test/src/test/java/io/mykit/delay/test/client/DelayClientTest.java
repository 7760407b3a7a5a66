package io.mykit.delay.test.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.client.DelayClient;
import io.mykit.delay.client.DelayClientException;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.client.JobView;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Java client's producer calls against a real gateway: push, batch push, cancel, reschedule, look-up, errors. */
class DelayClientTest {
    private static final Duration AN_HOUR = Duration.ofHours(1);

    @Gateway
    private static TestGateway gateway;

    private static DelayClient client;

    @BeforeAll
    static void connect() {
        client = DelayClient.builder().baseUri(gateway.baseUrl()).build();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void a_pushed_job_is_found_by_its_id_as_it_was_pushed() {
        String topic = unique("push");
        DelayJob job = DelayJob.builder(topic)
                .body("close order 42")
                .bizKey("order-42")
                .delay(AN_HOUR)
                .tries(5)
                .build();

        String id = client.push(job);

        assertThat(id).isEqualTo(job.id());
        JobView view = client.lookup(id).orElseThrow();
        assertThat(view.topic()).isEqualTo(topic);
        assertThat(view.body()).isEqualTo("close order 42");
        assertThat(view.bizKey()).isEqualTo("order-42");
        assertThat(view.tries()).isEqualTo(5);
        assertThat(view.stage()).isEqualTo("DELAYED");
        // journaled WaitPut first, Delay once the store confirmed it
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.lookup(id).orElseThrow().status(), "Delay"::equals);
        assertThat(Duration.between(view.createTime(), view.dueTime())).isEqualTo(AN_HOUR);
    }

    @Test
    void a_job_with_a_due_time_falls_due_then() {
        Instant due = Instant.now().plus(AN_HOUR);
        String id = client.push(DelayJob.builder(unique("due")).dueAt(due).build());

        JobView view = client.lookup(id).orElseThrow();

        // the delay is counted from the push by the client's clock: the gateway's clock here, up to the call's time
        assertThat(view.dueTime()).isBetween(due.minusSeconds(60), due.plusSeconds(60));
    }

    @Test
    void pushing_the_same_job_twice_stores_it_once() throws Exception {
        String topic = unique("again");
        String bizKey = unique("key");
        DelayJob job = DelayJob.builder(topic).bizKey(bizKey).delay(AN_HOUR).build();

        String first = client.push(job);
        String second = client.push(job);

        assertThat(second).isEqualTo(first);
        GatewayClient.Reply byKey = gateway.client().get("/jobs?bizKey=" + bizKey);
        assertThat(byKey.data()).as(byKey.toString()).hasSize(1);
        assertThat(gateway.journalStatuses(first).stream().filter(status -> status == 0))
                .as("WaitPut rows")
                .hasSize(1);
    }

    @Test
    void a_batch_is_answered_with_its_ids_in_order_and_pushed_again_stores_nothing_more() {
        String topic = unique("batch");
        String bizKey = unique("key");
        List<DelayJob> jobs = List.of(
                DelayJob.builder(topic).bizKey(bizKey).delay(AN_HOUR).body("a").build(),
                DelayJob.builder(topic).bizKey(bizKey).delay(AN_HOUR).body("b").build(),
                DelayJob.builder(topic)
                        .bizKey(bizKey)
                        .delay(AN_HOUR)
                        .id(unique("own"))
                        .build());

        List<String> ids = client.pushAll(jobs);

        assertThat(ids)
                .containsExactlyElementsOf(jobs.stream().map(DelayJob::id).toList());
        assertThat(client.lookup(ids.get(1)).orElseThrow().body()).isEqualTo("b");
        assertThat(client.pushAll(jobs)).isEqualTo(ids);
        assertThat(gateway.client().get("/jobs?bizKey=" + bizKey).data()).hasSize(3);
        assertThat(client.pushAll(List.of())).isEmpty();
    }

    @Test
    void a_cancelled_job_is_deleted_and_a_second_cancel_is_refused() {
        String id =
                client.push(DelayJob.builder(unique("cancel")).delay(AN_HOUR).build());

        client.cancel(id);

        JobView view = client.lookup(id).orElseThrow();
        assertThat(view.status()).isEqualTo("Delete");
        assertThat(view.stage()).isNull();
        DelayClientException again = catchThrowableOfType(DelayClientException.class, () -> client.cancel(id));
        assertThat(again.status()).isBetween(400, 499);
        assertThat(again.gatewayMessage()).isNotBlank();
    }

    @Test
    void a_rescheduled_job_is_due_at_its_new_time() {
        String id = client.push(
                DelayJob.builder(unique("resched")).delay(AN_HOUR).body("old").build());

        Instant due = client.reschedule(id, Duration.ofHours(2), "new");

        JobView view = client.lookup(id).orElseThrow();
        assertThat(view.dueTime()).isEqualTo(due);
        assertThat(view.body()).isEqualTo("new");
        assertThat(Duration.between(view.createTime(), view.dueTime())).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void an_unknown_id_is_looked_up_as_nothing_and_cancelled_as_404() {
        String id = unique("nobody");

        assertThat(client.lookup(id)).isEmpty();
        DelayClientException refused = catchThrowableOfType(DelayClientException.class, () -> client.cancel(id));
        assertThat(refused.status()).isEqualTo(404);
        assertThat(refused.gatewayMessage()).contains(id);
        assertThatThrownBy(() -> client.reschedule(id, AN_HOUR))
                .isInstanceOfSatisfying(
                        DelayClientException.class, e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void bad_input_is_refused_with_400_naming_the_field() {
        DelayJob tooLate =
                DelayJob.builder(unique("bad")).delay(Duration.ofDays(400)).build();

        DelayClientException refused = catchThrowableOfType(DelayClientException.class, () -> client.push(tooLate));

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.field()).isEqualTo("delay");
        assertThat(refused.gatewayMessage()).startsWith("delay: must be 0..");
        DelayClientException inBatch = catchThrowableOfType(
                DelayClientException.class,
                () -> client.pushAll(List.of(DelayJob.builder(unique("ok")).build(), tooLate)));
        assertThat(inBatch.status()).isEqualTo(400);
        assertThat(inBatch.field()).isEqualTo("[1].delay");
        assertThat(client.lookup(tooLate.id())).isEmpty();
    }

    @Test
    void a_topic_the_gateway_would_refuse_is_refused_before_any_call() {
        assertThatThrownBy(() -> DelayJob.builder("no spaces").build()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_gateway_that_cannot_be_reached_is_retried_then_reported_without_a_status() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (DelayClient unreachable = DelayClient.builder()
                .baseUri("http://127.0.0.1:" + closedPort)
                .maxRetries(2)
                .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(20))
                .build()) {
            DelayClientException failed = catchThrowableOfType(
                    DelayClientException.class,
                    () -> unreachable.push(DelayJob.builder("t").build()));

            assertThat(failed.status()).isZero();
            assertThat(failed.getCause()).isNotNull();
        }
    }
}
