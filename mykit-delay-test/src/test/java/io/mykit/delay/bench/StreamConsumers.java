package io.mykit.delay.bench;

import io.mykit.delay.client.ConsumerListener;
import io.mykit.delay.client.DelayClient;
import io.mykit.delay.client.DelayConsumer;
import io.mykit.delay.client.ReceivedJob;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@code stream} consumer style: each consumer is a {@link DelayConsumer} of the Java client, as a service would
 * run it, on a stream of its own; the client finishes each job once its handler returned. A job's lateness is taken
 * when its handler starts, what a service sees.
 */
final class StreamConsumers implements AutoCloseable {
    /** Jobs a stream may hold unfinished: enough that a drain is not held back by finishes in flight. */
    static final int CREDIT = 256;

    static final int HANDLER_THREADS = 2;

    private final List<DelayClient> clients = new ArrayList<>();
    private final List<DelayConsumer> consumers = new ArrayList<>();
    private final List<Histogram> lateness = new ArrayList<>();
    private final Set<String> received;
    private final AtomicLong duplicates;
    private final AtomicLong finished;
    private final AtomicLong lastFinishedAt;
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> firstError;

    /**
     * {@code count} consumers of {@code topic}, spread over {@code nodes} round-robin, recording into the run's shared
     * {@code received}, {@code duplicates}, {@code finished} and {@code lastFinishedAt}.
     */
    StreamConsumers(
            List<URI> nodes,
            String topic,
            int count,
            Set<String> received,
            AtomicLong duplicates,
            AtomicLong finished,
            AtomicLong lastFinishedAt,
            AtomicReference<String> firstError) {
        this.received = received;
        this.duplicates = duplicates;
        this.finished = finished;
        this.lastFinishedAt = lastFinishedAt;
        this.firstError = firstError;
        String token = System.getProperty("bench.token", "");
        for (int c = 0; c < count; c++) {
            DelayClient.Builder builder = DelayClient.builder().baseUri(nodes.get(c % nodes.size()));
            if (!token.isEmpty()) {
                builder.token(token);
            }
            DelayClient client = builder.build();
            clients.add(client);
            Histogram histogram = new Histogram();
            lateness.add(histogram);
            consumers.add(client.consumer()
                    .topics(topic)
                    .concurrency(HANDLER_THREADS)
                    .credit(CREDIT)
                    .ttr(Duration.ofSeconds(30))
                    .handler(job -> record(histogram, job))
                    .listener(new Counting())
                    .build()
                    .start());
        }
    }

    private void record(Histogram histogram, ReceivedJob job) {
        long late = System.currentTimeMillis() - job.dueTime().toEpochMilli();
        synchronized (histogram) {
            histogram.record(late);
        }
        if (!received.add(job.id())) {
            duplicates.incrementAndGet();
        }
    }

    /** Lateness of every job received so far, all consumers merged. */
    Histogram lateness() {
        List<Histogram> copies = new ArrayList<>();
        for (Histogram histogram : lateness) {
            synchronized (histogram) {
                copies.add(Histogram.merged(List.of(histogram)));
            }
        }
        return Histogram.merged(copies);
    }

    long errors() {
        return errors.get();
    }

    /** Closes every consumer (finishes flushed, unstarted jobs given back), then the clients. */
    @Override
    public void close() {
        consumers.forEach(DelayConsumer::close);
        clients.forEach(DelayClient::close);
    }

    /** Counts finishes the gateway confirmed, and refusals as errors. */
    private final class Counting implements ConsumerListener {
        @Override
        public void onConfirmed(String action, List<String> ids) {
            if ("finish".equals(action)) {
                finished.addAndGet(ids.size());
                lastFinishedAt.accumulateAndGet(System.currentTimeMillis(), Math::max);
            }
        }

        @Override
        public void onRefused(String action, String id, String reason) {
            errors.incrementAndGet();
            firstError.compareAndSet(null, "stream " + action + " of " + id + " refused: " + reason);
        }
    }
}
