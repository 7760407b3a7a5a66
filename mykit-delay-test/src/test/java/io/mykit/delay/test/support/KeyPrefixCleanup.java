package io.mykit.delay.test.support;

import io.mykit.delay.config.RedisProperties;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Deletes every key of a gateway's key prefix ({@code <prefix>*}, hash-tagged or not) from the Redis or Redis Cluster
 * its settings name: SCAN and DEL on one Redis, SCAN on each cluster node and DEL per slot.
 */
public final class KeyPrefixCleanup {
    /** A loaded machine may keep a shared Redis busy for seconds: the client's 2 s default would fail a clean-up. */
    private static final int SOCKET_TIMEOUT_MS = 30_000;

    private static final int BATCH = 500;

    private KeyPrefixCleanup() {}

    /** Deletes the keys of {@code prefix} where {@code redis} points; throws when that Redis does not answer. */
    public static void delete(RedisProperties redis, String prefix) {
        JedisClientConfig config = DefaultJedisClientConfig.builder()
                .password(redis.getPassword() == null || redis.getPassword().isEmpty() ? null : redis.getPassword())
                .database(redis.isCluster() ? 0 : redis.getDatabase())
                .socketTimeoutMillis(SOCKET_TIMEOUT_MS)
                .build();
        if (redis.isCluster()) {
            deleteOnCluster(
                    redis.getClusterNodes().stream().map(HostAndPort::from).toList(), config, prefix);
        } else {
            try (Jedis jedis = new Jedis(new HostAndPort(redis.getHost(), redis.getPort()), config)) {
                List<String> mine = new ArrayList<>(matching(jedis, prefix));
                for (int i = 0; i < mine.size(); i += BATCH) {
                    jedis.unlink(
                            mine.subList(i, Math.min(i + BATCH, mine.size())).toArray(String[]::new));
                }
            }
        }
    }

    /** Deletes the keys of {@code prefix} on the Redis Cluster these nodes belong to (no password). */
    public static void deleteOnCluster(Collection<HostAndPort> nodes, String prefix) {
        deleteOnCluster(
                nodes,
                DefaultJedisClientConfig.builder()
                        .socketTimeoutMillis(SOCKET_TIMEOUT_MS)
                        .build(),
                prefix);
    }

    private static void deleteOnCluster(Collection<HostAndPort> nodes, JedisClientConfig config, String prefix) {
        try (JedisCluster cluster = new JedisCluster(new LinkedHashSet<>(nodes), config)) {
            // a multi-key DEL must stay within one slot
            Map<Integer, List<String>> bySlot = new TreeMap<>();
            for (ConnectionPool pool : cluster.getClusterNodes().values()) {
                try (Connection connection = pool.getResource();
                        Jedis node = new Jedis(connection)) {
                    for (String key : matching(node, prefix)) {
                        bySlot.computeIfAbsent(JedisClusterCRC16.getSlot(key), slot -> new ArrayList<>())
                                .add(key);
                    }
                }
            }
            bySlot.values().forEach(keys -> cluster.unlink(keys.toArray(String[]::new)));
        }
    }

    /** The keys under {@code prefix}, plain and hash-tagged, by SCAN (never KEYS, which holds up a shared server). */
    private static Set<String> matching(Jedis jedis, String prefix) {
        Set<String> found = new LinkedHashSet<>();
        for (String pattern : List.of(prefix + "*", "{" + prefix + "*")) {
            ScanParams params = new ScanParams().match(pattern).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = jedis.scan(cursor, params);
                found.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        }
        return found;
    }
}
