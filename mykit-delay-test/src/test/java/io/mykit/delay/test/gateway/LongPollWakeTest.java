package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Long-polls are woken by the hand-over itself, not by their poll interval (set to 20 s here): each waiting puller gets
 * its job within moments of the due time, and a hand-over wakes only as many waiters as it has jobs.
 */
class LongPollWakeTest {
    @Gateway("mykit.delay.pull.poll-interval=20s")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    @AfterAll
    static void stop() {
        PULLERS.shutdownNow();
    }

    /** One thread per puller: they must all wait at once, whatever the machine's core count. */
    private static final ExecutorService PULLERS = Executors.newFixedThreadPool(3);

    /**
     * Longest a woken puller may take to answer: seconds for a loaded machine, yet well short of the 20 s poll interval
     * and the 30 s the polls wait, so only a wake-up by the hand-over answers within it.
     */
    private static final long WOKEN_WITHIN_MS = 10_000;

    /** Waits until {@code polls} long-polls wait in the gateway, so a job pushed next can only reach them by a wake. */
    private static void awaitWaiting(int polls) {
        PullTarget pull = gateway.bean(PullTarget.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == polls);
    }

    private static CompletableFuture<Reply> waitingPull(String topic) {
        return CompletableFuture.supplyAsync(() -> client.get(topic, 30_000, 30_000), PULLERS);
    }

    @Test
    void each_hand_over_wakes_as_many_waiting_pullers_as_it_has_jobs() throws Exception {
        String topic = "wake-" + UUID.randomUUID().toString().substring(0, 8);
        List<CompletableFuture<Reply>> pullers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pullers.add(waitingPull(topic));
        }
        awaitWaiting(3);

        long pushedAt = System.currentTimeMillis();
        String first = client.push("{\"topic\":\"" + topic + "\",\"delay\":300}")
                .data()
                .asText();
        Reply firstReply = CompletableFuture.anyOf(pullers.toArray(CompletableFuture[]::new))
                .thenApply(Reply.class::cast)
                .get(WOKEN_WITHIN_MS, TimeUnit.MILLISECONDS);
        assertThat(firstReply.data().path("id").asText()).isEqualTo(first);
        assertThat(System.currentTimeMillis() - pushedAt)
                .as("woken by the hand-over")
                .isLessThan(WOKEN_WITHIN_MS);
        Thread.sleep(300);
        assertThat(pullers.stream().filter(CompletableFuture::isDone).count())
                .as("one job wakes one puller")
                .isEqualTo(1);

        long secondPush = System.currentTimeMillis();
        String second =
                client.push("{\"topic\":\"" + topic + "\",\"delay\":0}").data().asText();
        String third =
                client.push("{\"topic\":\"" + topic + "\",\"delay\":0}").data().asText();
        List<String> got = new ArrayList<>();
        for (CompletableFuture<Reply> puller : pullers) {
            if (puller.get(WOKEN_WITHIN_MS, TimeUnit.MILLISECONDS) != firstReply) {
                got.add(puller.get().data().path("id").asText());
            }
        }
        assertThat(System.currentTimeMillis() - secondPush)
                .as("both woken by hand-overs")
                .isLessThan(WOKEN_WITHIN_MS);
        assertThat(got).containsExactlyInAnyOrder(second, third);
    }

    @Test
    void a_hand_over_wakes_a_waiting_batch_poll() throws Exception {
        String topic = "wake-batch-" + UUID.randomUUID().toString().substring(0, 8);
        CompletableFuture<Reply> batch = CompletableFuture.supplyAsync(
                () -> client.get("/get/" + topic + "/batch?count=5&ttr=30000&timeout=30000"), PULLERS);
        awaitWaiting(1);

        long pushedAt = System.currentTimeMillis();
        String id = client.push("{\"topic\":\"" + topic + "\",\"delay\":300}")
                .data()
                .asText();
        Reply reply = batch.get(WOKEN_WITHIN_MS, TimeUnit.MILLISECONDS);
        assertThat(System.currentTimeMillis() - pushedAt)
                .as("woken by the hand-over")
                .isLessThan(WOKEN_WITHIN_MS);
        assertThat(reply.data()).extracting(job -> job.path("id").asText()).containsExactly(id);
    }
}
