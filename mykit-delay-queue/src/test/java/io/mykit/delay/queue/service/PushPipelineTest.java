package io.mykit.delay.queue.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The group commit's turns, against a journal and a store that only do what each case needs (pure logic). */
class PushPipelineTest {

    /** Small groups take turns for their journal call only: a Redis add that hangs must not hold up the next commit. */
    @Test
    void a_small_group_commits_while_the_previous_one_waits_for_redis() throws Exception {
        CountDownLatch firstAddEntered = new CountDownLatch(1);
        CountDownLatch secondInsertEntered = new CountDownLatch(1);
        AtomicInteger inserts = new AtomicInteger();
        AtomicInteger adds = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        Journal journal = stub(Journal.class, (name, args) -> switch (name) {
            case "existingIds" -> Set.of();
            case "insertWaitPut" -> {
                if (inserts.incrementAndGet() == 2) {
                    secondInsertEntered.countDown();
                }
                ((Runnable) args[3]).run();
                yield "group-" + inserts.get();
            }
            default -> throw new UnsupportedOperationException(name);
        });
        DelayStore store = stub(DelayStore.class, (name, args) -> switch (name) {
            case "add" -> {
                if (adds.incrementAndGet() == 1) {
                    firstAddEntered.countDown();
                    overlapped.set(secondInsertEntered.await(30, TimeUnit.SECONDS));
                }
                yield List.of();
            }
            case "bucketOf" -> 0;
            default -> throw new UnsupportedOperationException(name);
        });
        StateChangeWriter states = new StateChangeWriter(stub(Journal.class, (name, args) -> null), 100, 0);
        states.start();
        try (PushPipeline pipeline =
                new PushPipeline(journal, store, states, (bucket, due) -> {}, Clock.systemUTC(), 1000, 2)) {
            pipeline.start();
            CompletableFuture<Set<String>> first = CompletableFuture.supplyAsync(
                            () -> pipeline.submit(List.of(job("a")), Set.of()))
                    .thenCompose(PushPipeline.Pending::done);
            assertThat(firstAddEntered.await(30, TimeUnit.SECONDS))
                    .as("first group reached Redis")
                    .isTrue();
            CompletableFuture<Set<String>> second = CompletableFuture.supplyAsync(
                            () -> pipeline.submit(List.of(job("b")), Set.of()))
                    .thenCompose(PushPipeline.Pending::done);

            assertThat(first.get(60, TimeUnit.SECONDS)).isEmpty();
            assertThat(second.get(60, TimeUnit.SECONDS)).isEmpty();
            assertThat(overlapped)
                    .as("second group's journal call ran while the first waited for Redis")
                    .isTrue();
        } finally {
            states.close();
        }
    }

    /** While the journal is busy, a small group waits for the pushes arriving within the linger: one commit for all. */
    @Test
    void pushes_arriving_within_the_linger_of_a_busy_journal_share_one_commit() throws Exception {
        List<Integer> groupSizes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Journal journal = countingJournal(groupSizes);
        StateChangeWriter states = new StateChangeWriter(stub(Journal.class, (name, args) -> null), 100, 0);
        states.start();
        long linger = TimeUnit.SECONDS.toNanos(3);
        try (PushPipeline pipeline = new PushPipeline(
                journal, storeStub(), states, (bucket, due) -> {}, Clock.systemUTC(), 1000, 1, linger)) {
            pipeline.start();
            // the first commit makes the journal busy for the linger's length
            pipeline.submit(List.of(job("a")), Set.of()).done().get(60, TimeUnit.SECONDS);
            CompletableFuture<Set<String>> second = CompletableFuture.supplyAsync(
                            () -> pipeline.submit(List.of(job("b")), Set.of()))
                    .thenCompose(PushPipeline.Pending::done);
            CompletableFuture<Set<String>> third = CompletableFuture.supplyAsync(
                            () -> pipeline.submit(List.of(job("c")), Set.of()))
                    .thenCompose(PushPipeline.Pending::done);
            second.get(60, TimeUnit.SECONDS);
            third.get(60, TimeUnit.SECONDS);
        } finally {
            states.close();
        }
        assertThat(groupSizes).containsExactly(1, 2);
    }

    /** A push to an idle journal commits at once: the linger only applies right after another commit. */
    @Test
    void a_push_to_an_idle_journal_does_not_linger() throws Exception {
        List<Integer> groupSizes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        StateChangeWriter states = new StateChangeWriter(stub(Journal.class, (name, args) -> null), 100, 0);
        states.start();
        long linger = TimeUnit.SECONDS.toNanos(60);
        try (PushPipeline pipeline = new PushPipeline(
                countingJournal(groupSizes),
                storeStub(),
                states,
                (bucket, due) -> {},
                Clock.systemUTC(),
                1000,
                1,
                linger)) {
            pipeline.start();
            // well before the linger's 60 s: it did not wait for company
            pipeline.submit(List.of(job("a")), Set.of()).done().get(30, TimeUnit.SECONDS);
        } finally {
            states.close();
        }
        assertThat(groupSizes).containsExactly(1);
    }

    private static Journal countingJournal(List<Integer> groupSizes) {
        return stub(Journal.class, (name, args) -> switch (name) {
            case "existingIds" -> Set.of();
            case "insertWaitPut" -> {
                groupSizes.add(((List<?>) args[0]).size());
                ((Runnable) args[3]).run();
                yield "group-" + groupSizes.size();
            }
            default -> throw new UnsupportedOperationException(name);
        });
    }

    private static DelayStore storeStub() {
        return stub(DelayStore.class, (name, args) -> switch (name) {
            case "add" -> List.of();
            case "bucketOf" -> 0;
            default -> throw new UnsupportedOperationException(name);
        });
    }

    private static Job job(String id) {
        return new Job(id, "t", null, null, 1_000, 0, 0, 0, "body", System.currentTimeMillis());
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
