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
                    overlapped.set(secondInsertEntered.await(5, TimeUnit.SECONDS));
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
            assertThat(firstAddEntered.await(5, TimeUnit.SECONDS))
                    .as("first group reached Redis")
                    .isTrue();
            CompletableFuture<Set<String>> second = CompletableFuture.supplyAsync(
                            () -> pipeline.submit(List.of(job("b")), Set.of()))
                    .thenCompose(PushPipeline.Pending::done);

            assertThat(first.get(10, TimeUnit.SECONDS)).isEmpty();
            assertThat(second.get(10, TimeUnit.SECONDS)).isEmpty();
            assertThat(overlapped)
                    .as("second group's journal call ran while the first waited for Redis")
                    .isTrue();
        } finally {
            states.close();
        }
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
