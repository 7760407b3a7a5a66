package io.mykit.delay.test.support;

import org.awaitility.Awaitility;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of private redis-servers (masters only, the 16384 slots split evenly), for code that must keep each
 * call inside one slot: a cluster answers CROSSSLOT where a single Redis would not mind.
 */
public final class OwnRedisCluster implements AutoCloseable {
    private static final int SLOTS = 16_384;
    private static final Duration FORMING = Duration.ofSeconds(20);

    private final List<OwnRedis> nodes;

    private OwnRedisCluster(List<OwnRedis> nodes) {
        this.nodes = nodes;
    }

    /** Starts {@code masters} nodes, gives each its share of the slots, joins them and waits until the cluster is ok. */
    public static OwnRedisCluster start(int masters) {
        List<OwnRedis> nodes = new ArrayList<>();
        OwnRedisCluster cluster = new OwnRedisCluster(nodes);
        try {
            for (int i = 0; i < masters; i++) {
                nodes.add(TestServers.startOwnRedis("cluster-enabled yes", "cluster-config-file nodes.conf",
                        "cluster-node-timeout 5000"));
            }
            for (int i = 0; i < masters; i++) {
                try (Jedis node = new Jedis(nodes.get(i).host(), nodes.get(i).port())) {
                    node.clusterAddSlotsRange(i * SLOTS / masters, (i + 1) * SLOTS / masters - 1);
                    for (OwnRedis other : nodes) {
                        node.clusterMeet(other.host(), other.port());
                    }
                }
            }
            Awaitility.await().atMost(FORMING).until(cluster::formed);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Every node answers cluster_state:ok and knows every other node. */
    private boolean formed() {
        for (OwnRedis redis : nodes) {
            try (Jedis node = new Jedis(redis.host(), redis.port())) {
                String info = node.clusterInfo();
                if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + nodes.size())) {
                    return false;
                }
            }
        }
        return true;
    }

    public JedisCluster client() {
        Set<HostAndPort> seeds = nodes.stream().map(n -> new HostAndPort(n.host(), n.port())).collect(Collectors.toSet());
        return new JedisCluster(seeds);
    }

    @Override
    public void close() {
        nodes.forEach(OwnRedis::close);
    }
}
