package io.mykit.delay.core;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.store.ClusterRedis;
import io.mykit.delay.queue.store.RedisNodes;
import io.mykit.delay.queue.store.SingleRedis;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.providers.ClusterConnectionProvider;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

/** The store's Redis from {@code mykit.delay.redis}: a Redis Cluster when cluster-nodes is set, else one Redis. */
final class RedisConnections {
    /** Tries of one cluster command across redirections and reconnects (Jedis' default is 5). */
    private static final int CLUSTER_MAX_ATTEMPTS = 3;

    private RedisConnections() {
    }

    static RedisNodes open(DelayProperties.Redis redis) {
        // ConnectionPoolConfig tests idle connections, as JedisPoolConfig did
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(redis.getPoolSize());
        pool.setMaxIdle(redis.getPoolSize());
        pool.setMinIdle(Math.min(8, redis.getPoolSize()));
        int timeout = (int) redis.getTimeout().toMillis();
        String password = redis.getPassword() == null || redis.getPassword().isEmpty() ? null : redis.getPassword();
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeout).socketTimeoutMillis(timeout).password(password);
        if (!redis.isCluster()) {
            HostAndPort address = new HostAndPort(redis.getHost(), redis.getPort());
            return new SingleRedis(new JedisPooled(address, client.database(redis.getDatabase()).build(), pool));
        }
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        redis.getClusterNodes().forEach(node -> seeds.add(HostAndPort.from(node.trim())));
        DefaultJedisClientConfig config = client.build();
        return new ClusterRedis(() -> new ClusterConnectionProvider(seeds, config, pool), CLUSTER_MAX_ATTEMPTS,
                Duration.ofMillis((long) timeout * CLUSTER_MAX_ATTEMPTS));
    }
}
