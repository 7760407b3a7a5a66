package io.mykit.delay.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How the peer and A/B scenarios' consumers take their jobs: {@code batch} (GET /get/{topic}/batch?count=100&amp;
 * timeout=500 then POST /finish/batch), {@code single} (GET /get/{topic} then GET /finish) and {@code stream} (the Java
 * client's stream consumer), and what beanstalkd's consumers send for each ({@link BeanstalkDriver}).
 */
record ConsumerStyle(String name, int batch, long timeoutMs) {
    /** The batch of the {@code stream} style: its consumers hold a stream each instead of pulling. */
    static final int STREAM = 0;

    /**
     * The styles {@code key} names ({@code defaults} when unset); {@code bench.peer.batch} (100),
     * {@code .batch-timeout}.
     */
    static List<ConsumerStyle> from(BenchSettings settings, String key, String defaults) {
        int batch = settings.number("bench.peer.batch", 100);
        int batchTimeout = settings.number("bench.peer.batch-timeout", 500);
        if (batch < 2 || batchTimeout < 100) {
            throw new IllegalArgumentException("need bench.peer.batch >= 2 and bench.peer.batch-timeout >= 100 ms");
        }
        List<ConsumerStyle> styles = Arrays.stream(settings.text(key, defaults).split(","))
                .map(s -> s.trim().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty())
                .map(s -> switch (s) {
                    case "batch" -> new ConsumerStyle(s, batch, batchTimeout);
                    case "single" -> new ConsumerStyle(s, 1, settings.pollTimeoutMs());
                    case "stream" -> new ConsumerStyle(s, STREAM, settings.pollTimeoutMs());
                    default -> throw new IllegalArgumentException(key + " takes batch, single and stream, not " + s);
                })
                .toList();
        if (styles.isEmpty()) {
            throw new IllegalArgumentException(key + " names no consumer style");
        }
        return styles;
    }

    /** "GET /get/{topic}/batch?count=100&timeout=500 + POST /finish/batch". */
    String gatewayCalls() {
        if (batch == STREAM) {
            return "GET /stream (the Java client's DelayConsumer: credit " + StreamConsumers.CREDIT + ", "
                    + StreamConsumers.HANDLER_THREADS + " handler threads, finishes batched)";
        }
        return batch > 1
                ? "GET /get/{topic}/batch?count=" + batch + "&timeout=" + timeoutMs + " + POST /finish/batch"
                : "GET /get/{topic}?timeout=" + timeoutMs + " + GET /finish";
    }

    /** What beanstalkd's consumers send instead. */
    String beanstalkdCalls() {
        int seconds = BeanstalkDriver.reserveTimeoutSeconds(timeoutMs);
        if (batch == STREAM) {
            // beanstalkd has no push to consumers: its own consumers' loop is the nearest thing
            return "reserve-with-timeout " + seconds + " + delete";
        }
        return batch > 1
                ? "reserve-with-timeout " + seconds + " + up to " + (batch - 1)
                        + " reserve-with-timeout 0, their deletes in one write"
                : "reserve-with-timeout " + seconds + " + delete";
    }
}
