package io.mykit.delay.test.ha;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Asks every live node for GET /cluster every {@code period} (a node still owing an answer is not asked again), and
 * keeps each answer with the moments the question left and the answer arrived: what it reports held at some instant
 * between the two.
 */
final class OwnershipSampler implements AutoCloseable {

    /** One node's answer; {@code view} is null when it gave none within the timeout (dead, frozen, cut off). */
    record Observation(String node, long sentAt, long receivedAt, ClusterView view) {

        boolean pumps(int bucket) {
            return view != null && view.pumping().contains(bucket);
        }
    }

    private static final Duration ANSWER_TIMEOUT = Duration.ofMillis(1500);

    private final Supplier<List<HaNode>> nodes;
    private final Duration period;
    private final HaHttp http = new HaHttp();
    private final List<Observation> observations = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, CompletableFuture<?>> pending = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    OwnershipSampler(Supplier<List<HaNode>> nodes, Duration period) {
        this.nodes = nodes;
        this.period = period;
        this.thread = new Thread(this::loop, "ha-ownership-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Observations sent in [from, to), in the order they were sent. */
    List<Observation> between(long from, long to) {
        synchronized (observations) {
            return observations.stream()
                    .filter(o -> o.sentAt() >= from && o.sentAt() < to)
                    .toList();
        }
    }

    /** Answers that were not a /cluster view (bad JSON, an error status): a broken endpoint, not a dead node. */
    List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    private void loop() {
        while (running) {
            long roundStart = System.currentTimeMillis();
            for (HaNode node : nodes.get()) {
                CompletableFuture<?> previous = pending.get(node.id());
                // one question per node at a time: a node that hangs slows only its own samples
                if (node.isAlive() && (previous == null || previous.isDone())) {
                    pending.put(node.id(), ask(node));
                }
            }
            long left = roundStart + period.toMillis() - System.currentTimeMillis();
            if (left > 0) {
                sleep(left);
            }
        }
    }

    private CompletableFuture<?> ask(HaNode node) {
        long sentAt = System.currentTimeMillis();
        return http.getAsync(node.clusterUrl(), ANSWER_TIMEOUT).handle((answer, failure) -> {
            long receivedAt = System.currentTimeMillis();
            ClusterView view = null;
            if (answer != null && answer.ok()) {
                try {
                    view = ClusterView.parse(answer.data());
                } catch (RuntimeException e) {
                    fail(node.id() + ": " + e.getMessage());
                }
            } else if (answer != null) {
                fail(node.id() + " answered GET /cluster with " + answer);
            }
            // no answer in time (dead, frozen, busy) leaves the view null: the node's state is unknown
            synchronized (observations) {
                observations.add(new Observation(node.id(), sentAt, receivedAt, view));
            }
            return null;
        });
    }

    private void fail(String message) {
        synchronized (failures) {
            failures.add(message);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(5));
    }
}
