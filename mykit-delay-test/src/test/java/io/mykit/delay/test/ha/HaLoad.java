package io.mykit.delay.test.ha;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.activemq.ActiveMQConnectionFactory;

/**
 * Steady traffic through the gateways of an HA test. Pushers send jobs with ids of their own (a push repeated on
 * another node is the same job) to whichever node answers; pullers on every node reserve batches and finish them,
 * through another node when theirs is gone; a JMS consumer takes the broker-routed topic. Workers only record what they
 * see, with times; the tests judge.
 */
final class HaLoad implements AutoCloseable {

    /** What to send: a pull topic and optionally a topic routed to ActiveMQ (null: none), jobs per second of each. */
    record Plan(
            String pullTopic,
            int pullPerSecond,
            String brokerTopic,
            int brokerPerSecond,
            String brokerUrl,
            long minDelayMs,
            long maxDelayMs) {}

    /** A push a gateway answered 200 for; {@code dueAt} is a lower bound of its due time. */
    record Accepted(String id, String topic, long dueAt, boolean firstTry) {
        /** Certainly due by {@code moment}: a retried push's due time is only known to lie after {@code dueAt}. */
        boolean isFirstTryDueBy(long moment) {
            return firstTry && dueAt <= moment;
        }
    }

    static final int PULLERS_PER_NODE = 2;
    static final int PULL_BATCH = 10;
    static final Duration TTR = Duration.ofSeconds(3);
    private static final long LONG_POLL_MS = 1_000;
    private static final Duration PUSH_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration PULL_TIMEOUT = Duration.ofMillis(LONG_POLL_MS + 2_000);
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(2);
    private static final int PUSHERS = 8;
    private static final int PUSH_ATTEMPTS = 12;
    private static final long PAUSE_AFTER_FAILURE_MS = 200;
    // a pusher late by more than this (a frozen node held it) starts a fresh schedule instead of bursting
    private static final long MAX_CATCH_UP_MS = 1_000;

    private final Plan plan;
    private final Supplier<List<HaNode>> nodes;
    private final String run;
    private final HaHttp http = new HaHttp();
    private final AtomicLong sequence = new AtomicLong();
    private final Map<String, Accepted> accepted = new ConcurrentHashMap<>();
    private final Map<String, Queue<Long>> deliveries = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
    private final List<String> anomalies = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> pushers = new ArrayList<>();
    private final List<Thread> pullers = new CopyOnWriteArrayList<>();
    private final Set<String> nodesWithPullers = ConcurrentHashMap.newKeySet();
    private volatile boolean pushing = true;
    private volatile boolean pulling = true;
    private Connection jms;

    /** Starts pushing and pulling at once; {@code nodes} is asked for the current gateways on every push. */
    HaLoad(Plan plan, Supplier<List<HaNode>> nodes) throws JMSException {
        this.plan = plan;
        this.nodes = nodes;
        this.run = Long.toString(System.nanoTime(), 36);
        if (plan.brokerTopic() != null) {
            listenToBroker();
        }
        nodes.get().forEach(this::pullFrom);
        for (int i = 0; i < PUSHERS; i++) {
            int first = i;
            pushers.add(start("ha-pusher-" + i, () -> pushLoop(first)));
        }
    }

    /** Adds pullers on a node that joined after the load started; a node that has them already is left alone. */
    void pullFrom(HaNode node) {
        if (nodesWithPullers.add(node.id())) {
            for (int i = 0; i < PULLERS_PER_NODE; i++) {
                pullers.add(start("ha-puller-" + node.id() + "-" + i, () -> pullLoop(node)));
            }
        }
    }

    /** Stops the pushers and waits for their last answers: {@link #accepted()} is final afterwards. */
    void stopPushing() throws InterruptedException {
        pushing = false;
        for (Thread pusher : pushers) {
            pusher.join();
        }
    }

    /** Waits until every accepted job was delivered at least once; false when {@code within} ran out first. */
    boolean awaitAllDelivered(Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (!undelivered().isEmpty()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    Map<String, Accepted> accepted() {
        return Map.copyOf(accepted);
    }

    /** Accepted jobs not delivered (yet). */
    Set<String> undelivered() {
        return accepted.keySet().stream()
                .filter(id -> !deliveries.containsKey(id))
                .collect(Collectors.toSet());
    }

    /** Deliveries beyond the first, summed over the accepted jobs of {@code topic}. */
    long duplicates(String topic) {
        return accepted.values().stream()
                .filter(job -> job.topic().equals(topic))
                .mapToLong(job -> Math.max(0, deliveryCount(job.id()) - 1))
                .sum();
    }

    int deliveryCount(String id) {
        Queue<Long> times = deliveries.get(id);
        return times == null ? 0 : times.size();
    }

    /**
     * The longest wait past its due time, delivered or not by {@code now}, of jobs due in [from, to] that were accepted
     * at their first try (a retried push's due time is only known to lie later).
     */
    long maxLateness(long from, long to, long now) {
        return accepted.values().stream()
                .filter(job -> job.firstTry() && job.dueAt() >= from && job.dueAt() <= to)
                .mapToLong(job -> firstDelivery(job.id()).orElse(now) - job.dueAt())
                .max()
                .orElse(-1);
    }

    /**
     * The longest wait from due time to hand-over (the job's first Ready row in {@code readyRows}; still missing counts
     * until {@code now}) of pull jobs due in [from, to] accepted at their first try: the gateway's part of the
     * lateness, without the pullers' own pace.
     */
    long maxHandOverLateness(long from, long to, List<JobLog.Row> readyRows, long now) {
        Map<String, Long> readyAt = new HashMap<>();
        readyRows.forEach(row -> readyAt.merge(row.id(), row.at(), Math::min));
        return accepted.values().stream()
                .filter(job -> job.firstTry()
                        && job.topic().equals(plan.pullTopic())
                        && job.dueAt() >= from
                        && job.dueAt() <= to)
                .mapToLong(job -> readyAt.getOrDefault(job.id(), now) - job.dueAt())
                .max()
                .orElse(-1);
    }

    /** How many accepted jobs fall due in [from, to], for messages (a window without jobs proves nothing). */
    long dueBetween(long from, long to) {
        return accepted.values().stream()
                .filter(job -> job.firstTry() && job.dueAt() >= from && job.dueAt() <= to)
                .count();
    }

    /** The first delivery of any job due after {@code moment} (only a new owner can have handed it over). */
    long firstDeliveryOfJobDueAfter(long moment) {
        return accepted.values().stream()
                .filter(job -> job.dueAt() > moment)
                .mapToLong(job -> firstDelivery(job.id()).orElse(Long.MAX_VALUE))
                .min()
                .orElse(Long.MAX_VALUE);
    }

    /** How often each kind of answer came back, e.g. "push 200" or "get no answer". */
    Map<String, Long> outcomes() {
        Map<String, Long> copy = new TreeMap<>();
        outcomes.forEach((kind, n) -> copy.put(kind, n.get()));
        return copy;
    }

    /** Answers no correct gateway gives. */
    List<String> anomalies() {
        synchronized (anomalies) {
            return List.copyOf(anomalies);
        }
    }

    /** Counts for a failure message or a report line. */
    String summary() {
        return "accepted " + accepted.size() + ", delivered " + deliveries.size() + " distinct ids, undelivered "
                + undelivered().size() + ", outcomes " + outcomes();
    }

    /** Ids per delivery count, for a report: {1=9000, 2=3} means three jobs came twice. */
    Map<Integer, Long> deliveryHistogram() {
        Map<Integer, Long> histogram = new TreeMap<>();
        accepted.keySet().forEach(id -> histogram.merge(deliveryCount(id), 1L, Long::sum));
        return histogram;
    }

    @Override
    public void close() throws InterruptedException, JMSException {
        pushing = false;
        pulling = false;
        for (Thread worker : pushers) {
            worker.join();
        }
        for (Thread worker : pullers) {
            worker.join();
        }
        if (jms != null) {
            jms.close();
        }
    }

    private void pushLoop(int firstNode) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int total = plan.pullPerSecond() + plan.brokerPerSecond();
        long periodNanos = 1_000_000_000L * PUSHERS / total;
        long next = System.nanoTime();
        int rotation = firstNode;
        while (pushing) {
            boolean broker = plan.brokerTopic() != null && random.nextInt(total) < plan.brokerPerSecond();
            long delay = random.nextLong(plan.minDelayMs(), plan.maxDelayMs() + 1);
            push(broker ? plan.brokerTopic() : plan.pullTopic(), delay, rotation++);
            next += periodNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                sleep(wait / 1_000_000);
            } else if (-wait > MAX_CATCH_UP_MS * 1_000_000) {
                next = System.nanoTime();
            }
        }
    }

    // one job, repeated with the same id on the next node until one answers 200
    private void push(String topic, long delay, int rotation) {
        String id = "ha-" + run + "-" + sequence.incrementAndGet();
        String body = HaHttp.json(Map.of("id", id, "topic", topic, "delay", delay, "body", id));
        long firstSent = System.currentTimeMillis();
        for (int attempt = 0; attempt < PUSH_ATTEMPTS && pushing; attempt++) {
            List<HaNode> current = nodes.get();
            if (attempt > 0 && attempt % current.size() == 0) {
                // every node failed once: give them a moment instead of spinning on refused connections
                sleep(PAUSE_AFTER_FAILURE_MS);
            }
            HaNode node = current.get(Math.floorMod(rotation + attempt, current.size()));
            try {
                HaHttp.Answer answer = http.post(node.baseUrl() + "/push", body, PUSH_TIMEOUT);
                count("push " + answer.status());
                if (answer.ok() && id.equals(answer.data().asText())) {
                    accepted.put(id, new Accepted(id, topic, firstSent + delay, attempt == 0));
                    return;
                }
                if (answer.status() < 500) {
                    anomalies.add("push " + body + " to " + node.id() + " answered " + answer);
                    return;
                }
            } catch (IOException e) {
                count("push no answer");
            }
        }
        count("push given up");
    }

    private void pullLoop(HaNode node) {
        String url = node.baseUrl() + "/get/" + plan.pullTopic() + "/batch?count=" + PULL_BATCH + "&ttr="
                + TTR.toMillis() + "&timeout=" + LONG_POLL_MS;
        while (pulling) {
            HaHttp.Answer answer;
            try {
                answer = http.get(url, PULL_TIMEOUT);
            } catch (IOException e) {
                count("get no answer");
                sleep(PAUSE_AFTER_FAILURE_MS);
                continue;
            }
            if (!answer.ok() || !answer.data().isArray()) {
                count("get " + answer.status());
                sleep(PAUSE_AFTER_FAILURE_MS);
                continue;
            }
            List<String> ids = new ArrayList<>();
            long now = System.currentTimeMillis();
            for (JsonNode job : answer.data()) {
                String id = job.path("id").asText("");
                if (id.isEmpty() || !plan.pullTopic().equals(job.path("topic").asText())) {
                    anomalies.add("get from " + node.id() + " answered " + job);
                    continue;
                }
                delivered(id, now);
                ids.add(id);
            }
            if (!ids.isEmpty()) {
                finish(node, ids);
            }
        }
    }

    // a finish goes to the puller's own node first, then to the others: a careful consumer does not let it lapse
    private void finish(HaNode own, List<String> ids) {
        List<HaNode> order = new ArrayList<>(List.of(own));
        nodes.get().stream().filter(node -> node != own).forEach(order::add);
        String body = HaHttp.json(ids);
        for (HaNode node : order) {
            try {
                HaHttp.Answer answer = http.post(node.baseUrl() + "/finish/batch", body, FINISH_TIMEOUT);
                count("finish " + answer.status());
                if (answer.ok()) {
                    JsonNode refused = answer.data().path("refused");
                    if (refused.size() > 0) {
                        count("finish refused");
                    }
                    return;
                }
            } catch (IOException e) {
                count("finish no answer");
            }
        }
        count("finish given up");
    }

    private void listenToBroker() throws JMSException {
        jms = new ActiveMQConnectionFactory(plan.brokerUrl()).createConnection();
        Session session = jms.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue(plan.brokerTopic()));
        consumer.setMessageListener(message -> {
            try {
                delivered(message.getStringProperty("jobId"), System.currentTimeMillis());
            } catch (JMSException e) {
                anomalies.add("JMS message without a readable jobId: " + e);
            }
        });
        jms.start();
    }

    private void delivered(String id, long at) {
        deliveries.computeIfAbsent(id, k -> new ConcurrentLinkedQueue<>()).add(at);
    }

    private OptionalLong firstDelivery(String id) {
        Queue<Long> times = deliveries.get(id);
        return times == null
                ? OptionalLong.empty()
                : times.stream().mapToLong(Long::longValue).min();
    }

    private void count(String kind) {
        outcomes.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private static Thread start(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
