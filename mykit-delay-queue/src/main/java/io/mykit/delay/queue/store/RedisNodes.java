package io.mykit.delay.queue.store;

import java.util.Collection;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis the store runs on, one server ({@link SingleRedis}) or a Redis Cluster ({@link ClusterRedis}): single-key
 * commands and one-bucket scripts go through {@link #client()}, batches through per-node {@link #pipelines()}.
 */
public interface RedisNodes extends AutoCloseable {

    /** Routes each command by its keys (all keys of one bucket share a slot). */
    UnifiedJedis client();

    /** A new batch; close it when done. */
    NodePipelines<?> pipelines();

    /** SCRIPT LOAD of every script on each node that serves one of {@code sampleKeys}. */
    void loadScripts(Collection<LuaScript> scripts, Collection<String> sampleKeys);

    /**
     * After a connection failure or a redirection: idle pooled connections may be to a Redis that restarted since, so
     * they go, and a cluster re-reads which node serves which slot.
     */
    void refresh();

    @Override
    void close();
}
