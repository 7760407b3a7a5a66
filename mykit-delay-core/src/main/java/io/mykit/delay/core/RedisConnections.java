package io.mykit.delay.core;

import io.mykit.delay.config.RedisProperties;
import io.mykit.delay.queue.store.ClusterRedis;
import io.mykit.delay.queue.store.RedisNodes;
import io.mykit.delay.queue.store.SingleRedis;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/** The store's Redis from {@code mykit.delay.redis}: a Redis Cluster when cluster-nodes is set, else one Redis. */
final class RedisConnections {
    /**
     * Tries of one cluster command across redirections and reconnects (Jedis' default is 5). Two, because from three on
     * Jedis sleeps between reconnects, up to the command's whole retry time, unseen and deaf to wake-ups; the gateway's
     * loops retry with their own backoff instead, which logs and which a restore cuts short.
     */
    private static final int CLUSTER_MAX_ATTEMPTS = 2;

    private RedisConnections() {}

    static RedisNodes open(RedisProperties redis) {
        return open(redis, redis.getTimeout());
    }

    /**
     * The same Redis or Redis Cluster for start-up work whose calls may take {@code socketTimeout} (a migration step);
     * a cluster's slot map is read at first use, so that use throws while no seed answers.
     */
    static RedisNodes open(RedisProperties redis, Duration socketTimeout) {
        // ConnectionPoolConfig tests idle connections, as JedisPoolConfig did
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(redis.getPoolSize());
        pool.setMaxIdle(redis.getPoolSize());
        pool.setMinIdle(Math.min(8, redis.getPoolSize()));
        // a command's tries may each take the socket timeout, as JedisCluster's default allows
        long timeout = Math.max(redis.getTimeout().toMillis(), socketTimeout.toMillis());
        DefaultJedisClientConfig.Builder client = clientConfig(redis, socketTimeout);
        if (!redis.isCluster()) {
            return new SingleRedis(new JedisPooled(
                    address(redis), client.database(redis.getDatabase()).build(), pool));
        }
        DefaultJedisClientConfig config = client.build();
        Set<HostAndPort> seeds = seeds(redis);
        return new ClusterRedis(
                () -> new ClusterConnectionProvider(seeds, config, pool),
                CLUSTER_MAX_ATTEMPTS,
                Duration.ofMillis(timeout * CLUSTER_MAX_ATTEMPTS));
    }

    /** Where the Redis is, for messages. */
    static String describe(RedisProperties redis) {
        return redis.isCluster()
                ? "Redis Cluster " + String.join(",", redis.getClusterNodes())
                : "Redis " + redis.getHost() + ":" + redis.getPort();
    }

    private static DefaultJedisClientConfig.Builder clientConfig(RedisProperties redis, Duration socketTimeout) {
        String password = redis.getPassword() == null || redis.getPassword().isEmpty() ? null : redis.getPassword();
        return DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) redis.getTimeout().toMillis())
                .socketTimeoutMillis((int) Math.max(redis.getTimeout().toMillis(), socketTimeout.toMillis()))
                .password(password);
    }

    private static HostAndPort address(RedisProperties redis) {
        return new HostAndPort(redis.getHost(), redis.getPort());
    }

    private static Set<HostAndPort> seeds(RedisProperties redis) {
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        redis.getClusterNodes().forEach(node -> seeds.add(HostAndPort.from(node.trim())));
        return seeds;
    }
}
