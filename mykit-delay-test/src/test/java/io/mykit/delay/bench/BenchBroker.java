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

    /** Whether a thread of this JVM, by its name, is the broker's (an embedded broker) rather than the gateway's. */
    boolean isBrokerThread(String threadName);

    /** Whether a thread of this JVM, by its name, is the consumer's: counted with the load driver's. */
    boolean isConsumerThread(String threadName);

    /** Stops the consumer and the broker and deletes the broker's store. */
    @Override
    void close();
}
