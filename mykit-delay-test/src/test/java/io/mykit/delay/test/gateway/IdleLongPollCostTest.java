package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.dispatch.pull.RedisHandOverCounts;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.RedisNodes;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Idle long-polls cost Redis nothing per topic, safety re-checks included: over several re-checks no command names one
 * of their topics, with 10 topics as with 300; and a hand-over whose wake-up never came is still found by a re-check.
 * On a private Redis, watched with MONITOR.
 */
class IdleLongPollCostTest {
    private static final long SAFETY_MS = 300;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static OwnRedis redis;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        redis = TestServers.startOwnRedis();
        gateway = TestGateway.start(redis.host(), redis.port(), "mykit.delay.pull.poll-interval=" + SAFETY_MS + "ms");
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static CompletableFuture<HttpResponse<String>> longPoll(String topic, long timeoutMs) {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(gateway.baseUrl() + "/get/" + topic + "?timeout=" + timeoutMs))
                .timeout(Duration.ofSeconds(60))
                .build();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Commands naming {@code marker} and those reading the hand-over counts, during three safety re-checks. */
    private static long[] commandsOverThreeReChecks(String marker) throws InterruptedException {
        AtomicLong naming = new AtomicLong();
        AtomicLong counts = new AtomicLong();
        CountDownLatch watching = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        Jedis monitor = new Jedis(redis.host(), redis.port());
        Thread reader = new Thread(
                () -> {
                    try {
                        monitor.monitor(new JedisMonitor() {
                            @Override
                            public void onCommand(String command) {
                                watching.countDown();
                                if (command.contains(marker)) {
                                    naming.incrementAndGet();
                                }
                                if (command.contains(":handovers")) {
                                    counts.incrementAndGet();
                                }
                            }
                        });
                    } catch (JedisException closed) {
                        ended.countDown();
                    }
                },
                "idle-poll-monitor");
        reader.start();
        try (Jedis ping = new Jedis(redis.host(), redis.port(), 30_000)) {
            // MONITOR shows commands from its start on: the first one seen proves it has started
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ping.ping();
                return watching.getCount() == 0;
            });
        }
        PullTarget pull = gateway.bean(PullTarget.class);
        long first = pull.safetyChecks();
        long[] before = {naming.get(), counts.get()};
        // a pass may be under way when counting starts: wait for three whole ones after it
        await().atMost(Duration.ofSeconds(30)).until(() -> pull.safetyChecks() >= first + 4);
        long[] seen = {naming.get() - before[0], counts.get() - before[1]};
        monitor.close();
        assertThat(ended.await(5, TimeUnit.SECONDS)).as("monitor closed").isTrue();
        return seen;
    }

    private static long[] idlePollsOn(int topics) throws Exception {
        String run = "idle" + UUID.randomUUID().toString().substring(0, 6);
        PullTarget pull = gateway.bean(PullTarget.class);
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        for (int i = 0; i < topics; i++) {
            polls.add(longPoll(run + "-" + i, 15_000));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> pull.waitingPolls() == topics);
        long[] seen = commandsOverThreeReChecks(run);
        for (CompletableFuture<HttpResponse<String>> poll : polls) {
            assertThat(poll.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        return seen;
    }

    @Test
    void idle_polls_on_ten_or_three_hundred_topics_cost_no_command_per_topic_over_the_safety_re_checks()
            throws Exception {
        long[] few = idlePollsOn(10);
        long[] many = idlePollsOn(300);
        assertThat(few[0]).as("commands naming one of 10 idle topics").isZero();
        assertThat(many[0]).as("commands naming one of 300 idle topics").isZero();
        assertThat(many[1]).as("reads of the hand-over counts in 3-4 re-checks").isLessThanOrEqualTo(5);
    }

    @Test
    void a_hand_over_whose_wake_up_was_lost_is_found_by_the_next_re_check() throws Exception {
        String topic = "lost" + UUID.randomUUID().toString().substring(0, 6);
        String id = gateway.client()
                .push("{\"topic\":\"" + topic + "\",\"delay\":3600000}")
                .data()
                .asText();
        PullTarget pull = gateway.bean(PullTarget.class);
        CompletableFuture<HttpResponse<String>> poll = longPoll(topic, 20_000);
        await().atMost(Duration.ofSeconds(5)).until(() -> pull.waitingPolls() == 1);

        // as another node would: the job goes to its ready list and the count is bumped, but no wake-up comes here
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        long inTwoHours = System.currentTimeMillis() + 7_200_000;
        assertThat(store.pumpDueToReady(store.bucketOf(id), inTwoHours, 10).jobs())
                .hasSize(1);
        new RedisHandOverCounts(gateway.bean(RedisNodes.class), store.keys().handOvers()).count(List.of(topic));

        HttpResponse<String> answer = poll.get(10, TimeUnit.SECONDS);
        assertThat(answer.body()).contains(id);
    }
}
