package io.mykit.delay.client;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Receives the due jobs of pull topics over one stream ({@code GET /stream}, a WebSocket) and runs a handler on each,
 * on a pool of {@code concurrency} threads. The gateway writes at most {@code credit} jobs that are neither finished
 * nor released; the consumer acknowledges them by the handler's outcome (see {@link JobHandler}), keeps long-running
 * ones reserved by touching them at half their ttr, and opens the stream again, with back-off, whenever it ends.
 *
 * <pre>
 * DelayConsumer consumer = client.consumer()
 *         .topics("order-close")
 *         .concurrency(8)
 *         .handler(job -> orders.close(job.body()))
 *         .build()
 *         .start();
 * ...
 * consumer.close(); // no new jobs, running handlers finish (up to the shutdown timeout), the rest go back at once
 * </pre>
 */
public final class DelayConsumer implements AutoCloseable {
    private final ConsumerSettings settings;
    private final ConsumerEngine engine;

    private DelayConsumer(ConsumerSettings settings) {
        this.settings = settings;
        this.engine = new ConsumerEngine(settings);
    }

    /** Opens the stream (and keeps it open) in the background; answers this consumer. Starting twice is an error. */
    public DelayConsumer start() {
        settings.client().opened(this);
        engine.start();
        return this;
    }

    /** CONNECTING, CONNECTED or CLOSED (before {@link #start()} and after {@link #close()}). */
    public ConsumerState state() {
        return engine.state();
    }

    /** The topics this consumer receives. */
    public List<String> topics() {
        return settings.topics();
    }

    /**
     * Stops: takes no new job, waits up to the shutdown timeout for running handlers, sends their finishes, then closes
     * the stream, whereupon the gateway gives back every job received and not started (not counted as a try). A handler
     * still running after the timeout is interrupted and its job comes back too. Closing twice does nothing.
     */
    @Override
    public void close() {
        try {
            engine.close();
        } finally {
            settings.client().closed(this);
        }
    }

    /** Builds a {@link DelayConsumer}; from {@link DelayClient#consumer()}. */
    public static final class Builder {
        /** The gateway's default limits.max-batch-size: most ids of one finish frame. */
        private static final int MAX_FINISH_IDS = 1000;

        private final DelayClient client;
        private List<String> topics = List.of();
        private JobHandler handler;
        private ManualJobHandler manualHandler;
        private int concurrency = 4;
        private int credit;
        private Duration ttr = Duration.ofSeconds(30);
        private int finishBatchSize = 100;
        private Duration finishFlushInterval = Duration.ofMillis(20);
        private Duration releaseInitial = Duration.ofSeconds(1);
        private Duration releaseMax = Duration.ofMinutes(5);
        private Duration shutdownTimeout = Duration.ofSeconds(30);
        private Duration pingInterval = Duration.ofSeconds(5);
        private Duration silenceTimeout = Duration.ofSeconds(15);
        private Duration reconnectInitial = Duration.ofMillis(200);
        private Duration reconnectMax = Duration.ofSeconds(30);
        private Duration refusedBackoff = Duration.ofSeconds(60);
        private ConsumerListener listener = new ConsumerListener() {};

        Builder(DelayClient client) {
            this.client = client;
        }

        /** The pull topics to receive (at least one). */
        public Builder topics(String... topics) {
            return topics(Arrays.asList(topics));
        }

        public Builder topics(Collection<String> topics) {
            for (String topic : topics) {
                if (!Names.plain(topic, Names.MAX_ID, false)) {
                    throw new IllegalArgumentException("not a topic: " + topic);
                }
            }
            this.topics = List.copyOf(topics);
            return this;
        }

        /** The handler, acknowledged by its outcome (replaces a manual handler). */
        public Builder handler(JobHandler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            this.manualHandler = null;
            return this;
        }

        /** A handler that acknowledges each job itself (replaces a handler). */
        public Builder manualHandler(ManualJobHandler handler) {
            this.manualHandler = Objects.requireNonNull(handler, "handler");
            this.handler = null;
            return this;
        }

        /** Handlers running at once (default 4). */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1, was " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /** Jobs the gateway may write that are neither finished nor released (default 2 x concurrency). */
        public Builder credit(int credit) {
            if (credit < 1) {
                throw new IllegalArgumentException("credit must be >= 1, was " + credit);
            }
            this.credit = credit;
            return this;
        }

        /** How long each received job stays reserved without a touch (default 30 s; at most the gateway's max-ttr). */
        public Builder ttr(Duration ttr) {
            if (DelayClient.Builder.positive("ttr", ttr).toMillis() < 1) {
                throw new IllegalArgumentException("ttr must be at least 1 ms, was " + ttr);
            }
            this.ttr = ttr;
            return this;
        }

        /**
         * Finishes are sent together: when {@code maxIds} are waiting, or {@code maxWait} after the first (100, 20 ms).
         */
        public Builder finishBatch(int maxIds, Duration maxWait) {
            if (maxIds < 1) {
                throw new IllegalArgumentException("maxIds must be >= 1, was " + maxIds);
            }
            this.finishBatchSize = maxIds;
            this.finishFlushInterval = DelayClient.Builder.positive("maxWait", maxWait);
            return this;
        }

        /**
         * A failed job is due again after {@code initial * 2^attempts}, at most {@code max}, with jitter (1 s, 5 min).
         */
        public Builder releaseBackoff(Duration initial, Duration max) {
            this.releaseInitial = DelayClient.Builder.positive("initial", initial);
            this.releaseMax = DelayClient.Builder.positive("max", max);
            return this;
        }

        /** How long {@link DelayConsumer#close()} waits for running handlers (default 30 s). */
        public Builder shutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
            return this;
        }

        /**
         * How often the consumer pings the gateway (default 5 s; the gateway closes a consumer silent for its idle
         * timeout, 15 s by default), and how long a silent gateway is trusted before the stream is opened anew (15 s).
         */
        public Builder heartbeat(Duration pingInterval, Duration silenceTimeout) {
            this.pingInterval = DelayClient.Builder.positive("pingInterval", pingInterval);
            this.silenceTimeout = DelayClient.Builder.positive("silenceTimeout", silenceTimeout);
            return this;
        }

        /**
         * Waits before opening the stream again: exponential from {@code initial} to {@code max} with jitter (200 ms,
         * 30 s), a handshake refused with 429 as its {@code Retry-After} says, and one refused with 401 or 403
         * {@code refused} (60 s), since a token does not become valid by asking again soon.
         */
        public Builder reconnectBackoff(Duration initial, Duration max, Duration refused) {
            this.reconnectInitial = DelayClient.Builder.positive("initial", initial);
            this.reconnectMax = DelayClient.Builder.positive("max", max);
            this.refusedBackoff = DelayClient.Builder.positive("refused", refused);
            return this;
        }

        /** Told what the consumer does (metrics, logs). */
        public Builder listener(ConsumerListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** The consumer, not started. */
        public DelayConsumer build() {
            if (topics.isEmpty()) {
                throw new IllegalStateException("topics are required");
            }
            if (handler == null && manualHandler == null) {
                throw new IllegalStateException("a handler is required");
            }
            return new DelayConsumer(new ConsumerSettings(
                    client,
                    topics,
                    handler,
                    manualHandler,
                    concurrency,
                    credit > 0 ? credit : 2 * concurrency,
                    ttr,
                    finishBatchSize,
                    finishFlushInterval,
                    new Backoff(releaseInitial, releaseMax),
                    shutdownTimeout,
                    pingInterval,
                    silenceTimeout,
                    new Backoff(reconnectInitial, reconnectMax),
                    refusedBackoff,
                    listener));
        }
    }
}
