package io.mykit.delay.test.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.recovery.LoadLedger.Kind;
import io.mykit.delay.test.recovery.LoadLedger.Trace;
import io.mykit.delay.test.recovery.LoadLedger.Violation;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Restores ({@code GET /reStore?expire=true}) run back to back while clients push, cancel, pull and finish jobs of two
 * pull topics, for {@code -Dmykit.test.restore-load-seconds} (default 60). Then the journal settles, Redis is wiped and
 * restored once more. No job may be reserved after its finish or cancel was answered, {@code /reStoreJob} must refuse
 * ended jobs, no ended job may be in Redis, and every other job pushed with 200 must be. The seed of the clients'
 * choices is printed; {@code -Dmykit.test.restore-load-seed} replays them (the gateway's timing is not replayed).
 */
class RestoreUnderLoadTest {
    private static final String SECONDS_PROPERTY = "mykit.test.restore-load-seconds";
    private static final String SEED_PROPERTY = "mykit.test.restore-load-seed";
    private static final int PRODUCERS = 2;
    /** Per producer: at most one call per 40 ms, half single pushes and half batches of 10: up to 275 jobs/s in all. */
    private static final long PUSH_EVERY_MS = 40;

    private static final int BATCH_SIZE = 10;
    private static final int MAX_SHORT_DELAY_MS = 3_000;
    /** One job in five waits an hour: it stays pending through the load and every restore. */
    private static final int LONG_ONE_IN = 5;

    private static final long LONG_DELAY_MS = Duration.ofHours(1).toMillis();
    private static final long CANCEL_EVERY_MS = 25;
    /** Cancels and /reStoreJob calls pick among the latest jobs half the time: those race delivery and finishing. */
    private static final int RECENT_PUSHED = 500;

    private static final int RECENT_ENDED = 50;
    private static final int CONSUMERS_PER_TOPIC = 2;
    private static final int PULL_COUNT = 20;
    /** Far beyond a finish's latency: a reserved job comes back only if something re-adds it. */
    private static final long TTR_MS = 30_000;

    private static final long POLL_TIMEOUT_MS = 1_000;
    private static final int SINGLE_FINISH_ONE_IN = 4;
    private static final long RESTORE_PAUSE_MS = 20;
    private static final int RESTORE_JOBS_PER_ROUND = 3;
    private static final long PROGRESS_EVERY_MS = 10_000;
    private static final long STOP_TIMEOUT_S = 60;
    private static final int LOOKUP_THREADS = 4;
    private static final long SETTLE_MS = 30_000;

    private final LoadLedger ledger = new LoadLedger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong restores = new AtomicLong();

    @Test
    void restores_under_load_bring_back_no_ended_job_and_lose_no_pending_one() throws Exception {
        restoresUnderLoad(Long.getLong(SECONDS_PROPERTY, 45));
    }

    /**
     * The same with the delivery ledger folded as soon as it can be: every restore page and lookup then races folds
     * that move ends from the ledger into the rows (a read of the rows before the ledger missed such ends).
     */
    @Test
    void restores_under_load_with_the_delivery_ledger_bring_back_no_ended_job() throws Exception {
        restoresUnderLoad(
                Long.getLong(SECONDS_PROPERTY, 20),
                "mykit.delay.journal.ledger=true",
                "mykit.delay.journal.ledger-fold-after=0s");
    }

    private void restoresUnderLoad(long seconds, String... settings) throws Exception {
        long seed = Long.getLong(SEED_PROPERTY, new Random().nextLong());
        System.out.println(
                "RestoreUnderLoadTest: " + seconds + " s, seed " + seed + " (-D" + SEED_PROPERTY + "=" + seed + ")");
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        List<String> topics = List.of("rl-a-" + suffix, "rl-b-" + suffix);
        // the final clearAll is followed by this test's restore alone, not by the automatic one
        List<String> properties = new ArrayList<>(List.of(settings));
        properties.add("mykit.delay.recovery.auto=false");
        try (TestGateway gateway = TestGateway.start(properties.toArray(String[]::new))) {
            Random seeds = new Random(seed);
            List<Runnable> loops = new ArrayList<>();
            for (int i = 0; i < PRODUCERS; i++) {
                Random random = new Random(seeds.nextLong());
                loops.add(() -> produce(new GatewayClient(gateway.baseUrl()), topics, random));
            }
            Random cancelRandom = new Random(seeds.nextLong());
            loops.add(() -> cancel(new GatewayClient(gateway.baseUrl()), cancelRandom));
            for (String topic : topics) {
                for (int i = 0; i < CONSUMERS_PER_TOPIC; i++) {
                    Random random = new Random(seeds.nextLong());
                    loops.add(() -> consume(new GatewayClient(gateway.baseUrl()), topic, random));
                }
            }
            Random restoreRandom = new Random(seeds.nextLong());
            loops.add(() -> restore(new GatewayClient(gateway.baseUrl()), restoreRandom));

            ExecutorService workers = Executors.newFixedThreadPool(loops.size(), named("restore-load-"));
            List<String> workerFailures = new ArrayList<>();
            try {
                List<Future<?>> futures =
                        loops.stream().<Future<?>>map(workers::submit).toList();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
                for (long left = end - System.nanoTime();
                        left > 0 && futures.stream().noneMatch(Future::isDone);
                        left = end - System.nanoTime()) {
                    Thread.sleep(Math.min(PROGRESS_EVERY_MS, Math.max(1, LoadLedger.millis(left))));
                    System.out.println(
                            "RestoreUnderLoadTest: " + ledger.progress() + ", " + restores.get() + " restores");
                }
                running.set(false);
                for (Future<?> future : futures) {
                    try {
                        future.get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
                    } catch (ExecutionException | TimeoutException e) {
                        workerFailures.add(String.valueOf(e instanceof ExecutionException ? e.getCause() : e));
                    }
                }
            } finally {
                running.set(false);
                workers.shutdownNow();
            }
            assertThat(workerFailures)
                    .as("load threads that failed: the load would have stopped early")
                    .isEmpty();

            GatewayClient client = gateway.client();
            assertThat(gateway.bean(StateChangeWriter.class).flush(SETTLE_MS))
                    .as("journal settled")
                    .isTrue();
            List<Trace> pushed = List.copyOf(ledger.pushedTraces());
            long pendingAbsentBefore = checkAfterLoad(gateway, pushed);

            Reply cleared = client.get("/clearAll");
            assertThat(cleared.status()).as(cleared.toString()).isEqualTo(200);
            Reply restored = client.get("/reStore?expire=true");
            assertThat(restored.status()).as(restored.toString()).isEqualTo(200);
            assertThat(restored.data().path("running").asBoolean())
                    .as(restored.toString())
                    .isFalse();
            long present = checkAfterFinalRestore(gateway, pushed);

            List<Violation> violations = ledger.violations();
            long ended =
                    pushed.stream().filter(t -> t.endedAt() != LoadLedger.NEVER).count();
            String summary = "RestoreUnderLoadTest after " + seconds + " s (seed " + seed + "): " + pushed.size()
                    + " jobs pushed with 200, " + ended + " ended ("
                    + pushed.stream().filter(Trace::finished).count() + " finished, "
                    + pushed.stream().filter(Trace::cancelled).count() + " cancelled), "
                    + present + " in Redis after the final restore, "
                    + pushed.stream().filter(Trace::uncertain).count() + " with an end call of unknown outcome, "
                    + pendingAbsentBefore + " pending ones Redis lacked before it; " + restores.get()
                    + " restores (final: " + restored.data() + ")\n  answers: " + ledger.counts()
                    + "\n" + LoadLedger.report(violations, id -> journalHistory(gateway, id));
            System.out.println(summary);
            assertThat(pushed.size()).as("the load ran").isGreaterThan(100);
            assertThat(restores.get()).as("restores ran").isGreaterThan(1);
            assertThat(LoadLedger.countByKind(violations)).as(summary).isEmpty();
        }
    }

    /** Pushes jobs to random topics, alone or ten at a time, at a steady rate. */
    private void produce(GatewayClient client, List<String> topics, Random random) {
        long next = System.nanoTime();
        while (running.get()) {
            int count = random.nextBoolean() ? 1 : BATCH_SIZE;
            List<String> jobTopics = new ArrayList<>(count);
            List<Long> delays = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                jobTopics.add(topics.get(random.nextInt(topics.size())));
                delays.add(random.nextInt(LONG_ONE_IN) == 0 ? LONG_DELAY_MS : random.nextInt(MAX_SHORT_DELAY_MS + 1));
            }
            String jobs = IntStream.range(0, count)
                    .mapToObj(i -> "{\"topic\":\"" + jobTopics.get(i) + "\",\"delay\":" + delays.get(i)
                            + ",\"body\":\"load\"}")
                    .collect(Collectors.joining(","));
            String route = count == 1 ? "push" : "push/batch";
            try {
                Reply reply = count == 1 ? client.push(jobs) : client.pushBatch("[" + jobs + "]");
                ledger.count(route + " " + reply.status());
                if (reply.status() == 200) {
                    List<String> ids = new ArrayList<>();
                    if (count == 1) {
                        ids.add(reply.data().asText());
                    } else {
                        reply.data().forEach(id -> ids.add(id.asText()));
                    }
                    if (ids.size() != count || ids.stream().anyMatch(String::isEmpty)) {
                        ledger.violation(
                                Kind.UNEXPECTED_ANSWER,
                                LoadLedger.NO_JOB,
                                route + " of " + count + " answered " + reply);
                    } else {
                        for (int i = 0; i < count; i++) {
                            ledger.pushed(ids.get(i), jobTopics.get(i), delays.get(i));
                        }
                    }
                } else if (reply.status() == 500) {
                    ledger.violation(Kind.UNEXPECTED_ANSWER, LoadLedger.NO_JOB, route + " answered " + reply);
                }
            } catch (UncheckedIOException e) {
                ledger.count(route + " no answer");
            }
            // no catching up after a slow call: at most one call per period
            next = Math.max(next + TimeUnit.MILLISECONDS.toNanos(PUSH_EVERY_MS), System.nanoTime());
            pauseUntil(next);
        }
    }

    /** Cancels random pushed jobs: 200 ends the job, 409 says it was handed over or had ended. */
    private void cancel(GatewayClient client, Random random) {
        while (running.get()) {
            String id = ledger.pickPushed(random, RECENT_PUSHED);
            if (id != null) {
                try {
                    Reply reply = client.delete(id);
                    long answered = System.nanoTime();
                    ledger.count("delete " + reply.status());
                    switch (reply.status()) {
                        case 200 -> ledger.cancelled(id, answered);
                        case 409 -> {}
                        case 404, 500 -> ledger.violation(Kind.UNEXPECTED_ANSWER, id, "delete answered " + reply);
                        default -> ledger.uncertain(id);
                    }
                } catch (UncheckedIOException e) {
                    ledger.count("delete no answer");
                    ledger.uncertain(id);
                }
            }
            pause(CANCEL_EVERY_MS);
        }
    }

    /** Long-polls batches of one topic and finishes each batch at once, mostly with /finish/batch. */
    private void consume(GatewayClient client, String topic, Random random) {
        while (running.get()) {
            long sent = System.nanoTime();
            Reply reply;
            try {
                reply = client.get("/get/" + topic + "/batch?count=" + PULL_COUNT + "&ttr=" + TTR_MS + "&timeout="
                        + POLL_TIMEOUT_MS);
            } catch (UncheckedIOException e) {
                ledger.count("get no answer");
                continue;
            }
            if (reply.status() != 200) {
                ledger.count("get " + reply.status());
                if (reply.status() == 500) {
                    ledger.violation(Kind.UNEXPECTED_ANSWER, LoadLedger.NO_JOB, "get answered " + reply);
                }
                continue;
            }
            List<String> ids = new ArrayList<>();
            for (JsonNode job : reply.data()) {
                String id = job.path("id").asText();
                if (!topic.equals(job.path("topic").asText())) {
                    ledger.violation(Kind.UNEXPECTED_ANSWER, id, "reserved from " + topic + ": " + job);
                }
                ledger.reserved(id, sent);
                ids.add(id);
            }
            ledger.count("reserved", ids.size());
            if (ids.isEmpty()) {
                continue;
            }
            if (random.nextInt(SINGLE_FINISH_ONE_IN) == 0) {
                ids.forEach(id -> finishOne(client, id));
            } else {
                finishBatch(client, ids);
            }
        }
    }

    private void finishOne(GatewayClient client, String id) {
        try {
            Reply reply = client.finish(id);
            long answered = System.nanoTime();
            ledger.count("finish " + reply.status());
            switch (reply.status()) {
                case 200 -> ledger.finished(id, answered);
                case 409 -> {}
                case 404, 500 -> ledger.violation(Kind.UNEXPECTED_ANSWER, id, "finish answered " + reply);
                default -> ledger.uncertain(id);
            }
        } catch (UncheckedIOException e) {
            ledger.count("finish no answer");
            ledger.uncertain(id);
        }
    }

    private void finishBatch(GatewayClient client, List<String> ids) {
        String body = ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]"));
        Reply reply;
        try {
            reply = client.raw("POST", "/finish/batch", "application/json", body);
        } catch (UncheckedIOException e) {
            ledger.count("finish/batch no answer");
            ids.forEach(ledger::uncertain);
            return;
        }
        long answered = System.nanoTime();
        ledger.count("finish/batch " + reply.status());
        if (reply.status() != 200) {
            ids.forEach(ledger::uncertain);
            if (reply.status() == 500) {
                ledger.violation(Kind.UNEXPECTED_ANSWER, LoadLedger.NO_JOB, "finish/batch answered " + reply);
            }
            return;
        }
        reply.data().path("finished").forEach(id -> ledger.finished(id.asText(), answered));
        ledger.count("finish/batch finished", reply.data().path("finished").size());
        reply.data().path("refused").properties().forEach(refused -> {
            String reason = refused.getValue().asText();
            // "not reserved (Delete)" and the like: the reason without the job's details
            ledger.count("finish/batch refused: " + reason.replaceAll(";.*", ""));
            if (reason.equals("no such job")) {
                ledger.violation(Kind.UNEXPECTED_ANSWER, refused.getKey(), "finish/batch refused it: " + reason);
            }
        });
    }

    /** Restores in a loop; between restores asks /reStoreJob for a few ended jobs, which must answer 409. */
    private void restore(GatewayClient client, Random random) {
        while (running.get()) {
            try {
                Reply reply = client.get("/reStore?expire=true");
                ledger.count("reStore " + reply.status());
                if (reply.status() == 200) {
                    restores.incrementAndGet();
                    ledger.count(
                            "reStore restored", reply.data().path("restored").asLong());
                } else {
                    ledger.violation(Kind.UNEXPECTED_ANSWER, LoadLedger.NO_JOB, "reStore answered " + reply);
                }
            } catch (UncheckedIOException e) {
                ledger.count("reStore no answer");
            }
            for (int i = 0; i < RESTORE_JOBS_PER_ROUND; i++) {
                String id = ledger.pickEnded(random, RECENT_ENDED);
                if (id == null) {
                    break;
                }
                long endedAt = ledger.endedAt(id);
                long sent = System.nanoTime();
                try {
                    Reply reply = client.get("/reStoreJob?jobId=" + id);
                    long answered = System.nanoTime();
                    ledger.count("reStoreJob " + reply.status());
                    if (reply.status() != 409) {
                        boolean reAdded = reply.data().path("restored").asBoolean(false);
                        if (reAdded) {
                            ledger.reAddedByRestoreJob(id, answered);
                        }
                        ledger.violation(
                                Kind.RESTORE_JOB_NOT_REFUSED,
                                id,
                                "asked " + LoadLedger.millis(sent - endedAt)
                                        + " ms after its end was answered, it answered " + reply.status()
                                        + (reAdded ? " and re-added it" : "") + ": " + reply.json());
                    }
                } catch (UncheckedIOException e) {
                    ledger.count("reStoreJob no answer");
                }
            }
            pause(RESTORE_PAUSE_MS);
        }
    }

    /**
     * Once the load stopped and the journal settled: no ended job may be in Redis (an ended job re-added while the load
     * ran, e.g. an hour-long one cancelled, would otherwise be wiped unseen by the final clearAll). Answers how many
     * pending jobs Redis lacked (the final restore must bring them back; counted, not judged, here).
     */
    private long checkAfterLoad(TestGateway gateway, List<Trace> pushed) throws Exception {
        AtomicLong pendingAbsent = new AtomicLong();
        lookUpAll(gateway, pushed, (trace, job) -> {
            boolean inRedis = !job.path("stage").isNull();
            if (trace.endedAt() != LoadLedger.NEVER && inRedis) {
                ledger.violation(
                        Kind.ENDED_STILL_IN_REDIS,
                        trace.id,
                        "journal status " + job.path("status").asText() + ", stage "
                                + job.path("stage").asText());
            } else if (trace.endedAt() == LoadLedger.NEVER && !trace.uncertain() && !inRedis && !ended(job)) {
                pendingAbsent.incrementAndGet();
            }
        });
        return pendingAbsent.get();
    }

    /**
     * After the final clearAll and restore: ended jobs absent, every other one present. Answers how many are present.
     */
    private long checkAfterFinalRestore(TestGateway gateway, List<Trace> pushed) throws Exception {
        AtomicLong present = new AtomicLong();
        lookUpAll(gateway, pushed, (trace, job) -> {
            boolean inRedis = !job.path("stage").isNull();
            if (inRedis) {
                present.incrementAndGet();
            }
            String state = "journal status " + job.path("status").asText() + ", stage "
                    + job.path("stage").asText();
            if (trace.endedAt() != LoadLedger.NEVER) {
                if (inRedis) {
                    ledger.violation(Kind.ENDED_BACK_IN_REDIS, trace.id, state);
                }
            } else if (!trace.uncertain()) {
                if (ended(job)) {
                    ledger.violation(Kind.ENDED_WITHOUT_ANSWER, trace.id, state);
                } else if (!inRedis) {
                    ledger.violation(
                            Kind.PENDING_MISSING,
                            trace.id,
                            state + ", topic " + trace.topic() + ", delay " + trace.delayMs() + " ms");
                }
            }
        });
        return present.get();
    }

    /** The job's journal log, oldest first, with each row's time and thread, for the report. */
    private static String journalHistory(TestGateway gateway, String jobId) {
        try {
            gateway.journalStatuses(jobId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return "journal log "
                + gateway.bean(Journal.class).history(jobId).stream()
                        .map(row ->
                                JobStatus.ofCode(row.status()).map(Enum::name).orElse(String.valueOf(row.status()))
                                        + "@" + row.updateTime().toLocalTime() + "/" + row.thread())
                        .toList();
    }

    private static boolean ended(JsonNode job) {
        return Set.of("Finish", "Delete", "Dead").contains(job.path("status").asText());
    }

    /** GET /jobs/{id} of every job, a few at a time; a job pushed with 200 that is unknown is itself a violation. */
    private void lookUpAll(TestGateway gateway, List<Trace> traces, BiConsumer<Trace, JsonNode> check)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(LOOKUP_THREADS, named("restore-load-lookup-"));
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int part = 0; part < LOOKUP_THREADS; part++) {
                int first = part;
                GatewayClient client = new GatewayClient(gateway.baseUrl());
                parts.add(pool.submit(() -> {
                    for (int i = first; i < traces.size(); i += LOOKUP_THREADS) {
                        Trace trace = traces.get(i);
                        Reply reply = client.lookup(trace.id);
                        if (reply.status() == 200) {
                            check.accept(trace, reply.data());
                        } else {
                            ledger.violation(Kind.UNEXPECTED_ANSWER, trace.id, "look-up answered " + reply);
                        }
                    }
                }));
            }
            for (Future<?> part : parts) {
                part.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void pauseUntil(long nanoTime) {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            pause(LoadLedger.millis(wait));
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + n.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
    }
}
