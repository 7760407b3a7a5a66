package io.mykit.delay.test.store;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.PullTarget;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.support.PrefixedRedis;
import io.mykit.delay.test.support.StoreProbes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A long-poll's first look is left out when a look over every bucket already found the topic empty and no hand-over
 * came since: the poll waits as one that had been waiting since that look (issue #14: with single pulls at a steady
 * rate, nearly every GET began with a full scan that found nothing). A job made ready without a wake-up here is still
 * found by the topic's poll-interval look. The shared Redis, a key prefix per test.
 */
class PollFirstLookTest {
    private static final int BUCKETS = 4;
    private static final long TTR = 60_000;
    private static final long WAIT_MS = 10_000;

    private static PrefixedRedis shared;
    private String prefix;
    private RedisDelayStore store;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private StateChangeWriter states;

    @BeforeAll
    static void connect() {
        shared = PrefixedRedis.connect();
    }

    @AfterAll
    static void disconnect() {
        shared.close();
    }

    @BeforeEach
    void freshPrefix() {
        prefix = "first-look-" + UUID.randomUUID().toString().substring(0, 8);
        store = new RedisDelayStore(shared.nodes(), new Keys(prefix, BUCKETS));
        states = new StateChangeWriter(StoreProbes.nowhere(), 100, 0);
        states.start();
    }

    @AfterEach
    void cleanUp() {
        states.close();
        shared.deleteKeys(prefix);
    }

    @Test
    void a_poll_after_an_empty_look_makes_no_look_of_its_own_and_a_hand_over_answers_it() throws Exception {
        // a poll interval longer than the test: only hand-overs wake the polls
        try (PullTarget pull = new PullTarget(StoreProbes.counted(store, calls), states, Clock.systemUTC(), 60_000)) {
            CompletableFuture<List<Job>> first = poll(pull, "quiet");
            assertThat(StoreProbes.calls(calls, "reserve")).as("the first poll's look over every bucket").isEqualTo(1);

            CompletableFuture<List<Job>> second = poll(pull, "quiet");
            assertThat(pull.waitingPolls()).isEqualTo(2);
            assertThat(StoreProbes.calls(calls, "reserve") + StoreProbes.calls(calls, "reserveFrom"))
                    .as("looks after the second poll arrived").isEqualTo(1);

            Job one = handOver(pull, "quiet", "one");
            assertThat(first.get(WAIT_MS, TimeUnit.MILLISECONDS)).extracting(Job::getId).containsExactly(one.getId());
            Job two = handOver(pull, "quiet", "two");
            assertThat(second.get(WAIT_MS, TimeUnit.MILLISECONDS)).extracting(Job::getId).containsExactly(two.getId());
        }
    }

    @Test
    void a_poll_after_a_hand_over_looks_at_once() throws Exception {
        try (PullTarget pull = new PullTarget(StoreProbes.counted(store, calls), states, Clock.systemUTC(), 60_000)) {
            CompletableFuture<List<Job>> first = poll(pull, "busy");
            CompletableFuture<List<Job>> second = poll(pull, "busy");
            Job one = handOver(pull, "busy", "one");
            assertThat(first.get(WAIT_MS, TimeUnit.MILLISECONDS)).extracting(Job::getId).containsExactly(one.getId());
            assertThat(second).as("one job, one poll woken").isNotDone();

            // the hand-over came after the empty look: a new poll must look, and finds what is ready now
            Job two = readyWithoutWakeUp("busy", "two");
            int looks = StoreProbes.calls(calls, "reserve") + StoreProbes.calls(calls, "reserveFrom");
            CompletableFuture<List<Job>> third = poll(pull, "busy");
            assertThat(third).as("answered by its own first look").isDone();
            assertThat(third.get()).extracting(Job::getId).containsExactly(two.getId());
            assertThat(StoreProbes.calls(calls, "reserve") + StoreProbes.calls(calls, "reserveFrom"))
                    .isGreaterThan(looks);
        }
    }

    @Test
    void a_job_made_ready_without_a_wake_up_is_found_by_the_poll_interval_look() throws Exception {
        try (PullTarget pull = new PullTarget(store, states, Clock.systemUTC(), 100)) {
            CompletableFuture<List<Job>> first = poll(pull, "remote");
            // as another node's hand-over whose wake-up never came: in its ready list, this node not told
            Job remote = readyWithoutWakeUp("remote", "remote");
            CompletableFuture<List<Job>> second = poll(pull, "remote");

            await().atMost(5, TimeUnit.SECONDS).until(() -> first.isDone() || second.isDone());
            List<Job> got = first.isDone() ? first.get() : second.get();
            assertThat(got).extracting(Job::getId).containsExactly(remote.getId());
        }
    }

    @Test
    void a_poll_that_does_not_wait_always_looks() throws Exception {
        try (PullTarget pull = new PullTarget(store, states, Clock.systemUTC(), 60_000)) {
            CompletableFuture<List<Job>> waiting = poll(pull, "now");
            Job ready = readyWithoutWakeUp("now", "ready");

            CompletableFuture<List<Job>> immediate = poll(pull, "now", 0);

            assertThat(immediate).isDone();
            assertThat(immediate.get()).extracting(Job::getId).containsExactly(ready.getId());
            assertThat(waiting).isNotDone();
        }
    }

    private static CompletableFuture<List<Job>> poll(PullTarget pull, String topic) {
        return poll(pull, topic, WAIT_MS);
    }

    private static CompletableFuture<List<Job>> poll(PullTarget pull, String topic, long timeoutMs) {
        CompletableFuture<List<Job>> answered = new CompletableFuture<>();
        pull.reserveAsync(topic, 1, TTR, timeoutMs, new PullTarget.PollAnswer() {
            @Override
            public boolean jobs(List<Job> jobs) {
                return answered.complete(jobs);
            }

            @Override
            public void failed(RuntimeException e) {
                answered.completeExceptionally(e);
            }
        });
        return answered;
    }

    /** A job of {@code topic}, due already, pumped to its ready list and handed over through the pull target. */
    private Job handOver(PullTarget pull, String topic, String name) {
        Job job = readyWithoutWakeUp(topic, name);
        pull.readied(store.bucketOf(job.getId()), List.of(job));
        return job;
    }

    /** A job of {@code topic} put in its ready list by the store alone: the pull target is not told. */
    private Job readyWithoutWakeUp(String topic, String name) {
        Job job = new Job(prefix + "-" + name, topic, null, null, 0, 0, 0, 0, "body of " + name,
                System.currentTimeMillis() - 1_000);
        store.add(List.of(job));
        List<Job> pumped = store.pumpDueToReady(store.bucketOf(job.getId()), System.currentTimeMillis(), 100).jobs();
        assertThat(pumped).extracting(Job::getId).containsExactly(job.getId());
        return job;
    }
}
