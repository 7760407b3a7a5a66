package io.mykit.delay.queue.store;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster through a {@link JedisCluster} whose slot map this class shares: a batch groups its commands per node
 * itself (Jedis 6's ClusterPipeline starts a thread pool per sync and leaves the replies of a node whose connection
 * broke unset instead of throwing). The slot map is read at first use, so a gateway started while the cluster is down
 * comes up as it does with a single Redis, and retries.
 */
public final class ClusterRedis implements RedisNodes {
    private final Supplier<ClusterConnectionProvider> connect;
    private final int maxAttempts;
    private final Duration maxRetryTime;
    private volatile Connected connected;

    private record Connected(ClusterConnectionProvider slots, JedisCluster cluster) {}

    /** {@code connect} reads the slot map from the seeds (and throws when none answers). */
    public ClusterRedis(Supplier<ClusterConnectionProvider> connect, int maxAttempts, Duration maxRetryTime) {
        this.connect = connect;
        this.maxAttempts = maxAttempts;
        this.maxRetryTime = maxRetryTime;
    }

    @Override
    public UnifiedJedis client() {
        return connected().cluster();
    }

    @Override
    public NodePipelines<HostAndPort> pipelines() {
        ClusterConnectionProvider slots = connected().slots();
        return new NodePipelines<>(key -> nodeOf(slots, key), slots::getConnection);
    }

    @Override
    public void loadScripts(Collection<LuaScript> scripts, Collection<String> sampleKeys) {
        ClusterConnectionProvider slots = connected().slots();
        // one sample key per node: its pipeline is that node's connection
        Map<HostAndPort, String> keyPerNode = new LinkedHashMap<>();
        sampleKeys.forEach(key -> keyPerNode.putIfAbsent(nodeOf(slots, key), key));
        try (NodePipelines<HostAndPort> batch = pipelines()) {
            keyPerNode
                    .values()
                    .forEach(key -> scripts.forEach(script -> batch.on(key).scriptLoad(script.source(), key)));
            batch.sync();
        }
    }

    @Override
    public void refresh() {
        Connected now = connected;
        if (now != null) {
            now.slots().getNodes().values().forEach(ConnectionPool::clear);
            now.slots().renewSlotCache();
        }
    }

    @Override
    public synchronized void close() {
        if (connected != null) {
            connected.cluster().close();
        }
    }

    private Connected connected() {
        Connected now = connected;
        if (now == null) {
            synchronized (this) {
                if (connected == null) {
                    ClusterConnectionProvider slots = connect.get();
                    connected = new Connected(slots, new JedisCluster(slots, maxAttempts, maxRetryTime));
                }
                now = connected;
            }
        }
        return now;
    }

    /** The master serving the key's slot, as last read from the cluster. */
    private static HostAndPort nodeOf(ClusterConnectionProvider slots, String key) {
        int slot = JedisClusterCRC16.getSlot(key);
        HostAndPort node = slots.getNode(slot);
        if (node == null) {
            slots.renewSlotCache();
            node = slots.getNode(slot);
        }
        if (node == null) {
            throw new JedisClusterOperationException("no node serves slot " + slot + " (key " + key + ")");
        }
        return node;
    }
}
