package io.mykit.delay.client;

/** Runs a {@link DelayConsumer}: its stream, its handler pool, its timers. */
final class ConsumerEngine {
    private final ConsumerSettings settings;
    private volatile ConsumerState state = ConsumerState.CLOSED;

    ConsumerEngine(ConsumerSettings settings) {
        this.settings = settings;
    }

    void start() {
        throw new UnsupportedOperationException("not yet: " + settings.topics());
    }

    ConsumerState state() {
        return state;
    }

    void close() {
        state = ConsumerState.CLOSED;
    }
}
