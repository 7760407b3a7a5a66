package io.mykit.delay.queue.dispatch.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.error.TooManyPollsException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The long-polls' waiting logic against an in-memory stand-in for the store's ready lists (pure logic). */
class PullTargetTest {
    /** Far beyond each case: only a wake-up, never the safety re-check, may answer a poll here. */
    private static final long NO_SAFETY_CHECK_MS = 600_000;

    private final Map<String, Deque<Job>> ready = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> looks = new ConcurrentHashMap<>();
    private final StateChangeWriter states = new StateChangeWriter(stub(Journal.class, (name, args) -> null), 100, 0);

    /** Takes up to {@code max} jobs of the topic; {@code blocker} holds a look of the topic "blocker" on its latch. */
    private DelayStore store(CountDownLatch blocker, AtomicInteger blockerLooks) {
        return stub(DelayStore.class, (name, args) -> switch (name) {
            case "reserve" -> {
                String topic = (String) args[0];
                looks.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet();
                if (topic.equals("blocker") && blockerLooks.incrementAndGet() == 2) {
                    blocker.await(10, TimeUnit.SECONDS);
                }
                List<Job> taken = new ArrayList<>();
                Deque<Job> list = ready.getOrDefault(topic, new ConcurrentLinkedDeque<>());
                Job job;
                while (taken.size() < (int) args[2] && (job = list.pollFirst()) != null) {
                    taken.add(job);
                }
                yield taken;
            }
            case "reserveFrom" -> new DelayStore.Reservation(List.of(), true);
            default -> throw new UnsupportedOperationException(name);
        });
    }

    private void makeReady(PullTarget pull, String topic, String id) {
        Job job = new Job(id, topic, null, null, 0, 0, 0, 0, "b", System.currentTimeMillis());
        ready.computeIfAbsent(topic, t -> new ConcurrentLinkedDeque<>()).add(job);
        pull.readied(0, List.of(job));
    }

    private static PendingPoll poll(PullTarget pull, String topic, CompletableFuture<List<Job>> answered) {
        return pull.reserveAsync(topic, 1, 30_000, 20_000, new PollAnswer() {
            @Override
            public boolean jobs(List<Job> jobs) {
                return answered.complete(jobs);
            }

            @Override
            public void failed(RuntimeException e) {
                answered.completeExceptionally(e);
            }
        });
    }

    @Test
    void a_wake_up_for_a_poll_that_went_away_meanwhile_goes_to_the_next_waiter() throws Exception {
        CountDownLatch blocker = new CountDownLatch(1);
        AtomicInteger blockerLooks = new AtomicInteger();
        try (PullTarget pull =
                new PullTarget(store(blocker, blockerLooks), states, Clock.systemUTC(), NO_SAFETY_CHECK_MS, 1, 100)) {
            CompletableFuture<List<Job>> first = new CompletableFuture<>();
            CompletableFuture<List<Job>> second = new CompletableFuture<>();
            PendingPoll gone = poll(pull, "orders", first);
            poll(pull, "orders", second);
            // the one poll worker is held by a look of another topic
            poll(pull, "blocker", new CompletableFuture<>());
            makeReady(pull, "blocker", "held");
            await().atMost(30, TimeUnit.SECONDS).until(() -> blockerLooks.get() == 2);

            // the job wakes the oldest poll, whose client goes away before that poll's look can run
            makeReady(pull, "orders", "job-1");
            gone.cancel();
            blocker.countDown();

            assertThat(second.get(30, TimeUnit.SECONDS)).extracting(Job::getId).containsExactly("job-1");
            assertThat(first).isNotDone();
        }
    }

    @Test
    void hot_buckets_of_a_topic_nobody_pulls_are_forgotten_after_a_while() {
        MovableClock clock = new MovableClock();
        try (PullTarget pull =
                new PullTarget(store(new CountDownLatch(0), new AtomicInteger()), states, clock, 20, 1, 100)) {
            makeReady(pull, "nobody-pulls", "job-1");
            assertThat(pull.hotTopics()).isEqualTo(1);
            clock.move(HotBuckets.IDLE_MS + 1);
            await().atMost(30, TimeUnit.SECONDS).until(() -> pull.hotTopics() == 0);
        }
    }

    @Test
    void a_poll_beyond_the_cap_is_refused_and_one_ending_makes_room() {
        try (PullTarget pull = new PullTarget(
                store(new CountDownLatch(0), new AtomicInteger()),
                states,
                Clock.systemUTC(),
                NO_SAFETY_CHECK_MS,
                1,
                2)) {
            PendingPoll one = poll(pull, "a", new CompletableFuture<>());
            poll(pull, "b", new CompletableFuture<>());
            assertThatThrownBy(() -> poll(pull, "c", new CompletableFuture<>()))
                    .isInstanceOf(TooManyPollsException.class)
                    .hasMessageContaining("max-waiting-polls = 2");
            one.cancel();
            poll(pull, "c", new CompletableFuture<>());
            assertThat(pull.waitingPolls()).isEqualTo(2);
        }
    }

    @Test
    void the_safety_re_check_looks_only_at_topics_handed_jobs_on_another_node_since_the_last_one() throws Exception {
        Map<Integer, Long> counted = new ConcurrentHashMap<>();
        HandOverCounts counts = new HandOverCounts() {
            @Override
            public void count(java.util.Collection<String> topics) {
                topics.forEach(topic -> counted.merge(HandOverCounts.slotOf(topic), 1L, Long::sum));
            }

            @Override
            public Map<Integer, Long> read() {
                return Map.copyOf(counted);
            }
        };
        try (PullTarget pull = new PullTarget(
                store(new CountDownLatch(0), new AtomicInteger()), states, Clock.systemUTC(), 20, 1, 100, counts)) {
            CompletableFuture<List<Job>> quiet = new CompletableFuture<>();
            CompletableFuture<List<Job>> lost = new CompletableFuture<>();
            poll(pull, "quiet", quiet);
            poll(pull, "lost", lost);
            long checks = pull.safetyChecks();
            await().atMost(30, TimeUnit.SECONDS).until(() -> pull.safetyChecks() >= checks + 5);
            assertThat(looks.get("quiet").get())
                    .as("looks of an idle topic: its first only")
                    .isEqualTo(1);

            // another node made a job ready and counted it; its wake-up never came
            Job job = new Job("job-1", "lost", null, null, 0, 0, 0, 0, "b", System.currentTimeMillis());
            ready.computeIfAbsent("lost", t -> new ConcurrentLinkedDeque<>()).add(job);
            counts.count(List.of("lost"));

            assertThat(lost.get(30, TimeUnit.SECONDS)).extracting(Job::getId).containsExactly("job-1");
            long after = pull.safetyChecks();
            await().atMost(30, TimeUnit.SECONDS).until(() -> pull.safetyChecks() >= after + 3);
            assertThat(looks.get("quiet").get()).isEqualTo(1);
            assertThat(quiet).isNotDone();
        }
    }

    /** A clock a test moves forward. */
    private static final class MovableClock extends Clock {
        private volatile long offsetMs;

        void move(long ms) {
            offsetMs += ms;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + offsetMs;
        }
    }

    private interface Answer {
        Object apply(String method, Object[] args) throws Exception;
    }

    private static <T> T stub(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(
                type.getClassLoader(),
                new Class<?>[] {type},
                (proxy, method, args) -> answer.apply(method.getName(), args)));
    }
}
