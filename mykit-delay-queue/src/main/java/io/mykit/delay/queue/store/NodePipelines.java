package io.mykit.delay.queue.store;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Pipeline;

/**
 * Pipelines grouped per Redis node: {@link #on(String)} gives the pipeline of the node serving a key, {@link #sync()}
 * reads every node's replies (one node after the other, without threads), {@link #close()} gives the connections back.
 * Responses are read after {@code sync()}; a failure of any node's read throws from {@code sync()}.
 */
public final class NodePipelines<N> implements AutoCloseable {
    private final Function<String, N> nodeOfKey;
    private final Function<N, Connection> connect;
    private final Map<N, Pipeline> byNode = new LinkedHashMap<>();

    NodePipelines(Function<String, N> nodeOfKey, Function<N, Connection> connect) {
        this.nodeOfKey = nodeOfKey;
        this.connect = connect;
    }

    /** The pipeline of the node that serves {@code key}'s slot (the one node of a single Redis). */
    public AbstractPipeline on(String key) {
        return byNode.computeIfAbsent(nodeOfKey.apply(key), node -> new Pipeline(connect.apply(node), true));
    }

    /** Sends what is queued and reads every reply, node by node. */
    public void sync() {
        byNode.values().forEach(Pipeline::sync);
    }

    /** Returns each node's connection to its pool (a broken one is dropped by the pool). */
    @Override
    public void close() {
        RuntimeException first = null;
        for (Pipeline pipeline : byNode.values()) {
            try {
                pipeline.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        byNode.clear();
        if (first != null) {
            throw first;
        }
    }
}
