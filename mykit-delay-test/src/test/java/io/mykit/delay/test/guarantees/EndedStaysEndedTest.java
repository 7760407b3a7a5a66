package io.mykit.delay.test.guarantees;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.RetryPolicy;
import io.mykit.delay.queue.dispatch.SendFailure;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.service.Cancellation;
import io.mykit.delay.queue.service.FinishReport;
import io.mykit.delay.queue.service.Finishing;
import io.mykit.delay.queue.service.JobValidator;
import io.mykit.delay.queue.service.PushPipeline;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.TimerGroup;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What ended stays ended, on the pull path against the real Redis and MariaDB: a Finish queued after a Ready, a restore
 * racing a finish and a cancel, a cancel of a reserved job, a finish whose reply was lost, a respawn of a dead job
 * Redis still held a record of, and long-polls that leave nothing behind.
 */
class EndedStaysEndedTest {
    @Gateway("mykit.delay.timer.sweep-interval=100ms")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    @Test
    void a_finish_and_a_ready_queued_after_it_in_one_batch_leave_the_job_finished() throws Exception {
        String id = push(topic(), 3_600_000, "");
        Journal journal = gateway.bean(Journal.class);
        long now = System.currentTimeMillis();
        // the puller's Finish reached the writer before the hand-over's Ready: one batch, in that order
        journal.apply(List.of(StateChange.of(id, JobStatus.Finish, now), StateChange.of(id, JobStatus.Ready, now)));
        assertThat(journal.find(id).orElseThrow().status()).isEqualTo(JobStatus.Finish);
    }

    @Test
    void a_restore_does_not_bring_back_jobs_that_ended_after_it_read_their_page() throws Exception {
        String topic = topic();
        String waiting = push(topic, 3_600_000, "");
        String reserved = push(topic, 0, "");
        assertThat(reserve(topic).path("id").asText()).isEqualTo(reserved);
        awaitJournal(reserved, JobStatus.Ready);

        // the real journal, with a cancel and a finish run right after the restore read its first page
        Journal journal = gateway.bean(Journal.class);
        Journal racing = HookedJournal.afterFirstPage(journal, () -> {
            assertThat(client.delete(waiting).status()).isEqualTo(200);
            assertThat(client.finish(reserved).status()).isEqualTo(200);
        });
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        RecoveryService recovery = new RecoveryService(
                racing,
                store,
                store,
                gateway.bean(StateChangeWriter.class),
                (bucket, at) -> {},
                Clock.systemUTC(),
                5_000);
        recovery.restore(true);

        assertThat(store.peek(waiting))
                .as("cancelled job in Redis after the restore")
                .isEmpty();
        assertThat(store.peek(reserved))
                .as("finished job in Redis after the restore")
                .isEmpty();
        awaitJournal(waiting, JobStatus.Delete);
        awaitJournal(reserved, JobStatus.Finish);
    }

    @Test
    void a_restore_during_a_push_does_not_make_the_push_deliver_its_job_twice() throws Exception {
        String topic = topic();
        String id = "push-race-" + UUID.randomUUID();
        List<String> deliveries = new java.util.concurrent.CopyOnWriteArrayList<>();
        Runnable pullAndFinish = () -> {
            Reply reply = client.get(topic, 30_000, 1_500);
            if (reply.data().isObject()) {
                deliveries.add(reply.data().path("id").asText());
                assertThat(client.finish(reply.data().path("id").asText()).status())
                        .isEqualTo(200);
            }
        };
        // the push has committed its WaitPut row and not yet added the job to Redis: a restore runs, pullers pull
        Journal racing = HookedJournal.afterFirstInsert(gateway.bean(Journal.class), () -> {
            gateway.bean(RecoveryService.class).restore(true);
            pullAndFinish.run();
        });
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        TimerGroup timers = gateway.bean(TimerGroup.class);
        try (PushPipeline pushes = new PushPipeline(
                racing, store, gateway.bean(StateChangeWriter.class), timers::wake, Clock.systemUTC(), 10, 1)) {
            pushes.start();
            Job job = new Job(id, topic, null, null, 0, 0, 0, 16, "b", System.currentTimeMillis());
            pushes.submit(List.of(job), java.util.Set.of(id)).done().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        pullAndFinish.run();
        pullAndFinish.run();
        assertThat(deliveries).as("deliveries of the pushed job").containsExactly(id);
        awaitJournal(id, JobStatus.Finish);
    }

    @Test
    void a_cancel_right_after_a_finish_is_refused_and_the_job_stays_finished() throws Exception {
        String topic = topic();
        String id = push(topic, 0, "");
        assertThat(reserve(topic).path("id").asText()).isEqualTo(id);
        assertThat(client.finish(id).status()).isEqualTo(200);
        // the Finish is still queued in the state writer (it lingers 50 ms) when the cancel comes
        Reply cancel = client.delete(id);
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(409);
        assertThat(gateway.journalStatuses(id)).as("journal log").doesNotContain(JobStatus.Delete.code());
        awaitJournal(id, JobStatus.Finish);
    }

    /**
     * A finish has taken the job from Redis and not yet submitted its Finish when a cancel of the same job comes: the
     * cancel finds the job absent and must wait for that end, not only for changes already queued (before: it wrote
     * Delete under the coming Finish and answered 200; RestoreUnderLoadTest met it once in 11,462 ended jobs).
     */
    @Test
    void a_cancel_during_a_finish_between_its_redis_step_and_its_journal_change_is_refused() throws Exception {
        String topic = topic();
        String id = push(topic, 0, "");
        assertThat(reserve(topic).path("id").asText()).isEqualTo(id);
        awaitJournal(id, JobStatus.Ready);

        ExecutorService canceller = Executors.newSingleThreadExecutor();
        try {
            AtomicReference<Future<String>> cancel = new AtomicReference<>();
            AtomicReference<Cancellation> cancellation = new AtomicReference<>();
            RedisDelayStore real = gateway.bean(RedisDelayStore.class);
            // the store's finishAll, then, still inside the finish, a cancel given a second to run
            DelayStore racing = (DelayStore) Proxy.newProxyInstance(
                    DelayStore.class.getClassLoader(), new Class<?>[] {DelayStore.class}, (proxy, method, args) -> {
                        Object result = invokeOn(real, method, args);
                        if (method.getName().equals("finishAll")) {
                            cancel.set(canceller.submit(() -> cancelOutcome(cancellation.get(), id)));
                            try {
                                cancel.get().get(1, TimeUnit.SECONDS);
                            } catch (TimeoutException waitingForTheFinish) {
                                // the cancel waits for this end: the finish goes on
                            }
                        }
                        return result;
                    });
            cancellation.set(new Cancellation(
                    racing, gateway.bean(Journal.class), gateway.bean(StateChangeWriter.class), Clock.systemUTC()));
            Finishing finishing = new Finishing(
                    gateway.bean(JobValidator.class),
                    racing,
                    gateway.bean(Journal.class),
                    gateway.bean(StateChangeWriter.class),
                    Clock.systemUTC());

            FinishReport finish = finishing.finishAll(List.of(id));
            assertThat(finish.finished()).as("finish report %s", finish).containsExactly(id);
            assertThat(cancel.get().get(10, TimeUnit.SECONDS))
                    .as("the cancel's outcome")
                    .startsWith("409");
        } finally {
            canceller.shutdownNow();
        }
        awaitJournal(id, JobStatus.Finish);
        assertThat(gateway.journalStatuses(id)).as("journal log").doesNotContain(JobStatus.Delete.code());
    }

    /**
     * A restore adds a large page in two halves at once; when one half fails, the other must be over before the restore
     * ends, since ending drops the marks and tombstones that keep ended jobs out of its adds.
     */
    @Test
    void a_restore_whose_half_page_add_fails_ends_only_after_the_other_half() throws Exception {
        String topic = topic();
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < 600; i++) {
            batch.append(i == 0 ? "" : ",")
                    .append("{\"topic\":\"")
                    .append(topic)
                    .append("\",\"delay\":3600000}");
        }
        assertThat(client.pushBatch(batch.append(']').toString()).status()).isEqualTo(200);
        RedisDelayStore real = gateway.bean(RedisDelayStore.class);
        AtomicBoolean halfRunning = new AtomicBoolean();
        AtomicBoolean endedWhileAdding = new AtomicBoolean();
        DelayStore failingHalf = (DelayStore) Proxy.newProxyInstance(
                DelayStore.class.getClassLoader(), new Class<?>[] {DelayStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("addUnlessEnded")) {
                        Collection<?> jobs = (Collection<?>) args[0];
                        if (real.bucketOf(((Job) jobs.iterator().next()).getId()) % 2 == 0) {
                            throw new StoreUnavailableException("redis", "test: this half fails", null);
                        }
                        halfRunning.set(true);
                        Thread.sleep(500);
                        halfRunning.set(false);
                    }
                    if (method.getName().equals("endRestore") && halfRunning.get()) {
                        endedWhileAdding.set(true);
                    }
                    return invokeOn(real, method, args);
                });
        RecoveryService recovery = new RecoveryService(
                gateway.bean(Journal.class),
                failingHalf,
                failingHalf,
                gateway.bean(StateChangeWriter.class),
                (bucket, at) -> {},
                Clock.systemUTC(),
                5_000);

        assertThatThrownBy(() -> recovery.restore(true)).isInstanceOf(StoreUnavailableException.class);
        assertThat(endedWhileAdding)
                .as("restore marks dropped while half of a page was still being added")
                .isFalse();
    }

    private static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** "200" when the cancel was taken, "409 ..." when it was refused as a conflict. */
    private static String cancelOutcome(Cancellation cancellation, String id) {
        try {
            cancellation.cancel(id);
            return "200";
        } catch (JobStateConflictException e) {
            return "409 " + e.getMessage();
        }
    }

    @Test
    void a_reserved_job_cannot_be_cancelled_and_its_finish_still_counts() throws Exception {
        String topic = topic();
        String id = push(topic, 0, "");
        assertThat(reserve(topic).path("id").asText()).isEqualTo(id);
        Reply cancel = client.delete(id);
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(409);
        assertThat(cancel.json().path("message").asText()).contains("handed over");
        assertThat(client.finish(id).status()).isEqualTo(200);
        awaitJournal(id, JobStatus.Finish);
    }

    @Test
    void a_finish_whose_first_reply_was_lost_is_taken_when_the_puller_repeats_it() throws Exception {
        String topic = topic();
        String id = push(topic, 0, "");
        assertThat(reserve(topic).path("id").asText()).isEqualTo(id);
        awaitJournal(id, JobStatus.Ready);
        // the removal ran in Redis, its answer never came back: nothing was journaled
        assertThat(gateway.bean(RedisDelayStore.class).finish(id, System.currentTimeMillis()))
                .isEqualTo(io.mykit.delay.queue.store.DelayStore.RemoveResult.REMOVED);
        Reply again = client.finish(id);
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        awaitJournal(id, JobStatus.Finish);

        String twice = push(topic, 0, "");
        assertThat(reserve(topic).path("id").asText()).isEqualTo(twice);
        assertThat(client.finish(twice).status()).isEqualTo(200);
        assertThat(client.finish(twice).status()).as("finishing twice at once").isEqualTo(200);
        Reply batch = client.raw("POST", "/finish/batch", "application/json", "[\"" + twice + "\"]");
        assertThat(batch.data().path("finished").toString()).contains(twice);
    }

    @Test
    void a_dead_job_redis_still_held_a_record_of_is_delivered_after_its_respawn() throws Exception {
        String topic = topic();
        String id = push(topic, 0, ",\"tries\":1");
        assertThat(client.get("/get/" + topic + "?ttr=200&timeout=10000")
                        .data()
                        .path("id")
                        .asText())
                .isEqualTo(id);
        awaitJournal(id, JobStatus.Dead);
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        // the burial journals Dead first and drops the job from Redis right after
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .until(() -> store.peek(id).isEmpty());
        // what a failed forget after the Dead write leaves behind: the record, nowhere to be pumped from
        Job leftover = new Job(id, topic, null, null, 0, 0, 0, 1, "", System.currentTimeMillis());
        try (var jedis = new redis.clients.jedis.Jedis(
                io.mykit.delay.test.support.TestServers.redis().host(),
                io.mykit.delay.test.support.TestServers.redis().port())) {
            jedis.hset(
                    store.keys().pool(store.bucketOf(id)), id, io.mykit.delay.common.model.JobCodec.encode(leftover));
        }
        Reply respawned =
                client.raw("POST", "/dead/" + topic + "/respawn", "application/json", "{\"ids\":[\"" + id + "\"]}");
        assertThat(respawned.data().path("respawned").asInt())
                .as(respawned.toString())
                .isEqualTo(1);
        JsonNode again = reserve(topic);
        assertThat(again.path("id").asText()).as("respawned job delivered").isEqualTo(id);
        assertThat(client.finish(id).status()).isEqualTo(200);
    }

    /**
     * A broker job out of tries is journaled Dead, and the forget that follows fails (a Redis error; a node killed
     * there leaves the same): it must never be handed out again, however long it stays in Redis or whatever restore
     * runs, and a respawn still moves it back.
     */
    @Test
    void a_buried_broker_job_whose_forget_failed_is_never_handed_out_again() throws Exception {
        String topic = topic();
        Job job = handedToBroker(topic);
        DeliveryOutcomes forgetFails = outcomesOn(failing("forget"), gateway.bean(Journal.class));
        assertThatThrownBy(() -> forgetFails.settle(bucketOf(job), List.of(), List.of(new SendFailure(job, "refused"))))
                .as("the forget after the Dead write")
                .isInstanceOf(StoreUnavailableException.class);
        awaitJournal(job.getId(), JobStatus.Dead);
        gateway.bean(RecoveryService.class).restore(true);
        assertThat(gateway.bean(RedisDelayStore.class)
                        .peek(job.getId())
                        .orElseThrow()
                        .stage())
                .as("after a restore")
                .isEqualTo(io.mykit.delay.queue.store.StoredJob.Stage.IN_FLIGHT);

        // the time it may stay in flight passes: the sweeper looks at it again
        expireInFlight(job);
        assertThat(client.get(topic, 30_000, 1_500).data().isNull())
                .as("a dead job handed to a puller")
                .isTrue();
        awaitGoneFromRedis(job);
        assertThat(status(job)).isEqualTo(JobStatus.Dead);

        Reply respawned = client.raw(
                "POST", "/dead/" + topic + "/respawn", "application/json", "{\"ids\":[\"" + job.getId() + "\"]}");
        assertThat(respawned.data().path("respawned").asInt())
                .as(respawned.toString())
                .isEqualTo(1);
        assertThat(reserve(topic).path("id").asText())
                .as("respawned job delivered")
                .isEqualTo(job.getId());
        assertThat(client.finish(job.getId()).status()).isEqualTo(200);
        awaitJournal(job.getId(), JobStatus.Finish);
    }

    /** The last send of a broker job failed and its Dead write fails too: it is buried later, never sent again. */
    @Test
    void a_broker_job_whose_dead_write_failed_is_buried_later_and_never_handed_out_again() throws Exception {
        String topic = topic();
        Job job = handedToBroker(topic);
        Journal real = gateway.bean(Journal.class);
        Journal deadWriteFails = (Journal) Proxy.newProxyInstance(
                Journal.class.getClassLoader(), new Class<?>[] {Journal.class}, (proxy, method, args) -> {
                    // a burial journals its Dead changes through bury (with the tries used), other ends through apply
                    if ((method.getName().equals("apply") || method.getName().equals("bury"))
                            && ((List<?>) args[0])
                                    .stream().anyMatch(change -> ((StateChange) change).status() == JobStatus.Dead)) {
                        throw new StoreUnavailableException("journal", "test: the Dead write fails", null);
                    }
                    return invokeOn(real, method, args);
                });
        DeliveryOutcomes outcomes = outcomesOn(gateway.bean(RedisDelayStore.class), deadWriteFails);
        assertThatThrownBy(() -> outcomes.settle(bucketOf(job), List.of(), List.of(new SendFailure(job, "refused"))))
                .isInstanceOf(StoreUnavailableException.class);
        assertThat(status(job)).as("nothing journaled yet").isEqualTo(JobStatus.Delay);

        expireInFlight(job);
        assertThat(client.get(topic, 30_000, 1_500).data().isNull())
                .as("a job out of tries handed out again")
                .isTrue();
        awaitJournal(job.getId(), JobStatus.Dead);
        awaitGoneFromRedis(job);
    }

    /**
     * A dead letter is dropped (journaled Delete) while Redis still holds it, and a send of it that was under way
     * confirms afterwards: the drop stands, and nothing hands the job out again.
     */
    @Test
    void a_dead_letter_drop_racing_a_send_stays_dropped() throws Exception {
        String topic = topic();
        Job job = handedToBroker(topic);
        DeliveryOutcomes forgetFails = outcomesOn(failing("forget"), gateway.bean(Journal.class));
        assertThatThrownBy(() -> forgetFails.settle(bucketOf(job), List.of(), List.of(new SendFailure(job, "refused"))))
                .isInstanceOf(StoreUnavailableException.class);
        awaitJournal(job.getId(), JobStatus.Dead);
        Reply dropped = client.raw("DELETE", "/dead/" + topic, null, null);
        assertThat(dropped.status()).as(dropped.toString()).isEqualTo(200);
        assertThat(status(job)).isEqualTo(JobStatus.Delete);

        // the broker confirms a send of it that another hand-over had under way
        gateway.bean(DeliveryOutcomes.class).settle(bucketOf(job), List.of(job), List.of());
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        assertThat(status(job))
                .as("a dropped dead letter after a late delivery")
                .isEqualTo(JobStatus.Delete);
        assertThat(client.get(topic, 30_000, 1_000).data().isNull())
                .as("a dropped job handed to a puller")
                .isTrue();
    }

    /** Finish, Delete and Dead stay as they came first, whichever path a later end takes to the journal. */
    @Test
    void a_late_finish_does_not_overwrite_dead_or_delete() throws Exception {
        String topic = topic();
        String dead = push(topic, 3_600_000, "");
        String deleted = push(topic, 3_600_000, "");
        String oneBatch = push(topic, 3_600_000, "");
        Journal journal = gateway.bean(Journal.class);
        StateChangeWriter states = gateway.bean(StateChangeWriter.class);
        double keptBefore = endsKept();
        long now = System.currentTimeMillis();
        journal.apply(List.of(StateChange.of(dead, JobStatus.Dead, now)));
        assertThat(client.delete(deleted).status()).isEqualTo(200);

        List<StateChange> lateFinishes =
                List.of(StateChange.of(dead, JobStatus.Finish, now), StateChange.of(deleted, JobStatus.Finish, now));
        journal.apply(lateFinishes);
        states.submitAll(lateFinishes);
        assertThat(states.flush(30_000)).isTrue();
        journal.apply(List.of(
                StateChange.of(oneBatch, JobStatus.Dead, now), StateChange.of(oneBatch, JobStatus.Finish, now)));

        assertThat(journal.find(dead).orElseThrow().status())
                .as("Dead, then Finish")
                .isEqualTo(JobStatus.Dead);
        assertThat(journal.find(deleted).orElseThrow().status())
                .as("Delete, then Finish")
                .isEqualTo(JobStatus.Delete);
        assertThat(journal.find(oneBatch).orElseThrow().status())
                .as("Dead, then Finish in one batch")
                .isEqualTo(JobStatus.Dead);
        assertThat(endsKept() - keptBefore).as("late ends counted").isEqualTo(5);
        gateway.bean(RedisDelayStore.class).forget(bucketOf(dead), List.of(dead));
        gateway.bean(RedisDelayStore.class).forget(bucketOf(oneBatch), List.of(oneBatch));
    }

    @Test
    void long_polls_of_topics_nobody_waits_on_any_more_leave_nothing_behind() throws Exception {
        ExecutorService pollers = Executors.newFixedThreadPool(8);
        try {
            List<Future<Reply>> replies = new java.util.ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String path = "/get/idle-" + UUID.randomUUID() + "?timeout=" + (i % 4 == 0 ? 200 : 0);
                replies.add(pollers.submit(() -> client.get(path)));
            }
            for (Future<Reply> reply : replies) {
                assertThat(reply.get().status()).isEqualTo(200);
            }
        } finally {
            pollers.shutdownNow();
        }
        assertThat(gateway.bean(PullTarget.class).waitingTopics())
                .as("topics with a waiting long-poll")
                .isZero();
    }

    /**
     * A job pushed due in half an hour (tries 1) and pumped by hand at its due time, as a hand-over to a broker sender
     * leaves it: in flight with no puller's reservation. The gateway routes every topic to pullers, so a job the
     * sweeper returns is then handed to the topic's pullers, where a test sees it.
     */
    private static Job handedToBroker(String topic) {
        String id = push(topic, 1_800_000, ",\"tries\":1");
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        long due = store.peek(id).orElseThrow().job().dueTime();
        Job job = store.pumpDue(store.bucketOf(id), due, 1_000, 60_000).jobs().stream()
                .filter(pumped -> pumped.getId().equals(id))
                .findFirst()
                .orElseThrow();
        assertThat(store.peek(id).orElseThrow().stage())
                .isEqualTo(io.mykit.delay.queue.store.StoredJob.Stage.IN_FLIGHT);
        return job;
    }

    /** The gateway's settling of hand-overs, on {@code store} and {@code journal}. */
    private static DeliveryOutcomes outcomesOn(DelayStore store, Journal journal) {
        DelayProperties properties = gateway.bean(DelayProperties.class);
        RetryPolicy policy = new RetryPolicy(
                properties.getDispatch().getRetryBase().toMillis(),
                properties.getDispatch().getRetryCap().toMillis(),
                properties.getLimits().getDefaultTries());
        return new DeliveryOutcomes(
                store,
                store,
                journal,
                gateway.bean(StateChangeWriter.class),
                policy,
                (bucket, at) -> {},
                Clock.systemUTC());
    }

    /** The gateway's store, whose {@code verb} fails as it does when Redis does not answer. */
    private static DelayStore failing(String verb) {
        RedisDelayStore real = gateway.bean(RedisDelayStore.class);
        return (DelayStore) Proxy.newProxyInstance(
                DelayStore.class.getClassLoader(), new Class<?>[] {DelayStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals(verb)) {
                        throw new StoreUnavailableException("redis", "test: " + verb + " fails", null);
                    }
                    return invokeOn(real, method, args);
                });
    }

    /** Moves the job's in-flight deadline to the past: what the time it may stay in flight does when it passes. */
    private static void expireInFlight(Job job) {
        RedisDelayStore store = gateway.bean(RedisDelayStore.class);
        try (var jedis = new redis.clients.jedis.Jedis(
                io.mykit.delay.test.support.TestServers.redis().host(),
                io.mykit.delay.test.support.TestServers.redis().port())) {
            assertThat(jedis.zadd(
                            store.keys().inflight(bucketOf(job)),
                            1,
                            job.getId(),
                            redis.clients.jedis.params.ZAddParams.zAddParams()
                                    .xx()
                                    .ch()))
                    .as("in flight")
                    .isEqualTo(1);
        }
    }

    private static void awaitGoneFromRedis(Job job) {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .until(() ->
                        gateway.bean(RedisDelayStore.class).peek(job.getId()).isEmpty());
    }

    private static int bucketOf(Job job) {
        return bucketOf(job.getId());
    }

    private static int bucketOf(String id) {
        return gateway.bean(RedisDelayStore.class).bucketOf(id);
    }

    /** The job's journal status once the state writer wrote what it holds. */
    private static JobStatus status(Job job) throws InterruptedException {
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        return gateway.bean(Journal.class).find(job.getId()).orElseThrow().status();
    }

    /** Ends the journal left as they were because the job had ended already, so far. */
    private static double endsKept() {
        return gateway
                .bean(io.micrometer.core.instrument.MeterRegistry.class)
                .find("mykit.delay.journal.ended.kept")
                .counters()
                .stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count)
                .sum();
    }

    static String topic() {
        return PullPath.topic("ended");
    }

    static String push(String topic, long delay, String extraFields) {
        return PullPath.push(client, topic, ",\"delay\":" + delay + extraFields);
    }

    static JsonNode reserve(String topic) {
        return PullPath.reserve(client, topic, 30_000);
    }

    static void awaitJournal(String id, JobStatus status) {
        PullPath.awaitStatus(client, id, status);
    }
}
