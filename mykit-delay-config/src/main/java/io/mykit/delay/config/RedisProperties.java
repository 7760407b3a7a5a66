package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** {@code mykit.delay.redis.*}: the Redis connection and key layout. */
public class RedisProperties {
    public static final String DEFAULT_KEY_PREFIX = "mykit-delay";
    private static final Pattern HOST_AND_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_.-]+):[0-9]{1,5}");

    /** Redis host; left unset (and no cluster-nodes), the embedded default starts its own Redis. */
    private String host;
    /** Redis port. */
    private int port = 6379;
    /** Redis password, if any. */
    private String password;
    /** Redis logical database. */
    private int database;
    /** Prefix of every key the gateway writes; lets several gateways share one Redis. */
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    /** Socket and connect timeout. */
    private Duration timeout = Duration.ofSeconds(2);
    /** Maximum pooled connections (HTTP threads, timers and long-polls share them); per node on a cluster. */
    private int poolSize = 64;
    /** Redis Cluster seed nodes, host:port each; when set, host and port are not used. */
    private List<String> clusterNodes = new ArrayList<>();
    /** Compact job records in Redis; false while older gateways (JSON readers only) share the Redis. */
    private boolean compactRecords = true;

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public int getDatabase() {
        return database;
    }

    public void setDatabase(int database) {
        this.database = database;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public int getPoolSize() {
        return poolSize;
    }

    public void setPoolSize(int poolSize) {
        this.poolSize = poolSize;
    }

    public List<String> getClusterNodes() {
        return clusterNodes;
    }

    public void setClusterNodes(List<String> clusterNodes) {
        this.clusterNodes = clusterNodes;
    }

    public boolean isCompactRecords() {
        return compactRecords;
    }

    public void setCompactRecords(boolean compactRecords) {
        this.compactRecords = compactRecords;
    }

    /** True when the gateway talks to a Redis Cluster rather than a single Redis. */
    public boolean isCluster() {
        return clusterNodes != null && !clusterNodes.isEmpty();
    }

    void validate(List<String> errors) {
        if (isCluster()) {
            validateClusterNodes(errors);
        } else {
            check(errors, host != null && !host.isBlank(), "mykit.delay.redis.host must be set");
            check(errors, port > 0 && port < 65536, "mykit.delay.redis.port must be 1..65535, was " + port);
        }
        check(
                errors,
                keyPrefix != null && keyPrefix.matches("[A-Za-z0-9_.:-]{1,64}"),
                "mykit.delay.redis.key-prefix must match [A-Za-z0-9_.:-]{1,64}, was " + keyPrefix);
        check(errors, poolSize >= 2, "mykit.delay.redis.pool-size must be >= 2");
    }

    private void validateClusterNodes(List<String> errors) {
        List<String> bad =
                clusterNodes.stream().filter(node -> !isHostAndPort(node)).toList();
        check(
                errors,
                bad.isEmpty(),
                "mykit.delay.redis.cluster-nodes must be host:port entries (port 1..65535), bad: "
                        + String.join(
                                ", ", bad.stream().map(node -> "'" + node + "'").toList()));
        check(
                errors,
                database == 0,
                "mykit.delay.redis.database must be 0 with cluster-nodes (a Redis Cluster "
                        + "has database 0 only), was " + database);
    }

    /** host:port or [ipv6]:port, with a port of 1..65535. */
    private static boolean isHostAndPort(String node) {
        if (node == null || !HOST_AND_PORT.matcher(node).matches()) {
            return false;
        }
        int port = Integer.parseInt(node.substring(node.lastIndexOf(':') + 1));
        return port > 0 && port < 65536;
    }
}
