package io.mykit.delay.test.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Clients of one pull topic while the gateway is being killed: pushers remember every push the gateway answered 200
 * success for, pullers count every job they reserve and finish it. Workers only record what they see; the test judges
 * it. Connection errors are expected and counted, never retried blindly: only pushes with a client id are repeated
 * (with the same id), as a careful producer would after losing an answer.
 */
final class ChaosLoad implements AutoCloseable {

    static final long TTR_MS = 2_000;
    private static final int MAX_DELAY_MS = 3_000;
    private static final long POLL_TIMEOUT_MS = 1_000;
    private static final long PUSH_PAUSE_MS = 10;
    private static final long PAUSE_AFTER_ERROR_MS = 100;
    private static final int CLIENT_ID_ONE_IN = 3;
    private static final int CLIENT_ID_MAX_TRIES = 3;
    private static final long STOP_TIMEOUT_S = 90;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One push as a client would send it; {@code tries} counts earlier attempts with the same client id. */
    private record Push(String clientId, long delayMs, String body, int tries) {}

    /** A push the gateway answered 200 success for. */
    record Accepted(String id, long delayMs, boolean clientId, int tries, long atMillis) {}

    private final GatewayClient client;
    private final String topic;
    private final long startMillis = System.currentTimeMillis();
    private final ExecutorService pushers;
    private final ExecutorService pullers;
    private final List<Future<?>> pushing = new ArrayList<>();
    private final List<Future<?>> pulling = new ArrayList<>();
    private final AtomicBoolean pushOn = new AtomicBoolean(true);
    private final AtomicBoolean pullOn = new AtomicBoolean(true);
    private final Map<String, Accepted> accepted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    private final Queue<Push> toRepeat = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicLong> outcomes = new ConcurrentSkipListMap<>();
    private final List<String> anomalies = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong pushCounter = new AtomicLong();

    ChaosLoad(String baseUrl, String topic, int pusherCount, int pullerCount) {
        this.client = new GatewayClient(baseUrl);
        this.topic = topic;
        this.pushers = Executors.newFixedThreadPool(pusherCount, named("chaos-pusher-"));
        this.pullers = Executors.newFixedThreadPool(pullerCount, named("chaos-puller-"));
        for (int i = 0; i < pusherCount; i++) {
            pushing.add(pushers.submit(this::pushLoop));
        }
        for (int i = 0; i < pullerCount; i++) {
            pulling.add(pullers.submit(this::pullLoop));
        }
    }

    /** Stops the pushers and waits for their last answers, so {@link #accepted()} is final afterwards. */
    void stopPushing() throws Exception {
        pushOn.set(false);
        for (Future<?> pusher : pushing) {
            pusher.get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    void stopPulling() throws Exception {
        pullOn.set(false);
        for (Future<?> puller : pulling) {
            puller.get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    Map<String, Accepted> accepted() {
        return accepted;
    }

    /** Accepted ids no puller has received yet. */
    Set<String> undelivered() {
        return accepted.keySet().stream()
                .filter(id -> !deliveries.containsKey(id))
                .collect(Collectors.toSet());
    }

    Set<String> deliveredIds() {
        return Set.copyOf(deliveries.keySet());
    }

    long deliveries() {
        return deliveries.values().stream().mapToLong(AtomicInteger::get).sum();
    }

    /** Deliveries beyond the first of each id. */
    long duplicates() {
        return deliveries() - deliveries.size();
    }

    /** How often each kind of answer (or no answer) came back, e.g. "push 200" or "get no answer". */
    Map<String, Long> outcomes() {
        Map<String, Long> copy = new TreeMap<>();
        outcomes.forEach((kind, n) -> copy.put(kind, n.get()));
        return copy;
    }

    /** Answers no correct gateway gives (a 200 without a job id, a job of another topic...). */
    List<String> anomalies() {
        synchronized (anomalies) {
            return List.copyOf(anomalies);
        }
    }

    long startMillis() {
        return startMillis;
    }

    /** Workers that died of something other than a lost connection: they would silently stop the load. */
    List<String> workerFailures() {
        List<String> failures = new ArrayList<>();
        List<Future<?>> all = new ArrayList<>(pushing);
        all.addAll(pulling);
        for (Future<?> worker : all) {
            if (worker.isDone() && !worker.isCancelled()) {
                try {
                    worker.get();
                } catch (ExecutionException e) {
                    failures.add(e.getCause().toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failures.add("interrupted while looking");
                }
            }
        }
        return failures;
    }

    @Override
    public void close() {
        pushOn.set(false);
        pullOn.set(false);
        pushers.shutdownNow();
        pullers.shutdownNow();
    }

    private void pushLoop() {
        while (pushOn.get()) {
            Push push = toRepeat.poll();
            pushOnce(push != null ? push : newPush());
            pause(PUSH_PAUSE_MS);
        }
    }

    private Push newPush() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String clientId = random.nextInt(CLIENT_ID_ONE_IN) == 0 ? "chaos-" + UUID.randomUUID() : null;
        return new Push(clientId, random.nextInt(MAX_DELAY_MS + 1), "body-" + pushCounter.incrementAndGet(), 0);
    }

    private void pushOnce(Push push) {
        ObjectNode json = JSON.createObjectNode()
                .put("topic", topic)
                .put("delay", push.delayMs())
                .put("body", push.body());
        if (push.clientId() != null) {
            json.put("id", push.clientId());
        }
        Reply reply;
        try {
            reply = client.push(json.toString());
        } catch (UncheckedIOException e) {
            count("push no answer");
            repeatLater(push);
            pause(PAUSE_AFTER_ERROR_MS);
            return;
        }
        count("push " + reply.status());
        if (reply.status() != 200 || !reply.success()) {
            repeatLater(push);
            pause(PAUSE_AFTER_ERROR_MS);
            return;
        }
        String id = reply.data().asText("");
        if (id.isEmpty() || (push.clientId() != null && !push.clientId().equals(id))) {
            anomalies.add("push " + json + " answered " + reply);
            return;
        }
        accepted.put(
                id,
                new Accepted(
                        id, push.delayMs(), push.clientId() != null, push.tries() + 1, System.currentTimeMillis()));
    }

    private void repeatLater(Push push) {
        if (push.clientId() != null && push.tries() + 1 < CLIENT_ID_MAX_TRIES) {
            toRepeat.add(new Push(push.clientId(), push.delayMs(), push.body(), push.tries() + 1));
        }
    }

    private void pullLoop() {
        while (pullOn.get()) {
            Reply reply;
            try {
                reply = client.get(topic, TTR_MS, POLL_TIMEOUT_MS);
            } catch (UncheckedIOException e) {
                count("get no answer");
                pause(PAUSE_AFTER_ERROR_MS);
                continue;
            }
            JsonNode job = reply.data();
            if (reply.status() != 200 || !reply.success()) {
                count("get " + reply.status());
                pause(PAUSE_AFTER_ERROR_MS);
                continue;
            }
            if (job.isNull() || job.isMissingNode()) {
                count("get empty");
                continue;
            }
            String id = job.path("id").asText("");
            if (id.isEmpty() || !topic.equals(job.path("topic").asText())) {
                anomalies.add("get answered " + reply);
                continue;
            }
            count("get job");
            deliveries.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            finish(id);
        }
    }

    private void finish(String id) {
        try {
            count("finish " + client.finish(id).status());
        } catch (UncheckedIOException e) {
            // the reservation runs out and the job comes again: a duplicate, which at-least-once allows
            count("finish no answer");
        }
    }

    private void count(String kind) {
        outcomes.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
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
