package io.mykit.delay.bench;

import java.util.List;

/** A real broker for the bench's broker scenarios, with a consumer in this JVM. */
interface BenchBroker extends AutoCloseable {
    /** "ActiveMQ", "RocketMQ". */
    String name();

    /** Gateway settings ({@code key=value}) that send every due job to this broker. */
    List<String> gatewayProperties();

    /** Subscribes a consumer to what the gateway sends for {@code topic}; it tells {@code receipts} what it gets. */
    void consume(String topic, Receipts receipts) throws Exception;

    /**
     * The broker alone at a steady rate, no gateway: one producer in this JVM sends {@code rate} messages/s for
     * {@code seconds} to {@code destination}, each confirmed on its own (as the gateway's single hand-overs at such a
     * rate are), and a consumer like {@link #consume}'s reads them. Lateness is counted from each message's slot in the
     * schedule, so a stall counts for every message it held up; a first message and
     * {@link PacedSchedule#WARMUP_SECONDS} at the rate go unmeasured, so this JVM's producer and consumer run compiled
     * code.
     */
    Paced pacedAlone(String destination, int rate, int seconds, String body) throws Exception;

    /** Lateness (ms after the slot) of each confirmed send and of each first receipt, and how the sends went out. */
    record Paced(Histogram ack, Histogram consumer, long sent, long received, String how) {}

    /** Whether a thread of this JVM, by its name, is the broker's (an embedded broker) rather than the gateway's. */
    boolean isBrokerThread(String threadName);

    /** Whether a thread of this JVM, by its name, is the consumer's: counted with the load driver's. */
    boolean isConsumerThread(String threadName);

    /** Stops the consumer and the broker and deletes the broker's store. */
    @Override
    void close();
}
