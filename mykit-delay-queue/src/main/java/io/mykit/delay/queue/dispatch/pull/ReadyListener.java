package io.mykit.delay.queue.dispatch.pull;

/** Told of every hand-over to a topic's ready lists on this node, so that long-polls on other nodes can be woken. */
@FunctionalInterface
public interface ReadyListener {
    /** Listens to nothing: a standalone node has no other node to wake. */
    ReadyListener NONE = (topic, jobs) -> {};

    /** This node made {@code jobs} jobs of {@code topic} ready. */
    void readied(String topic, int jobs);
}
