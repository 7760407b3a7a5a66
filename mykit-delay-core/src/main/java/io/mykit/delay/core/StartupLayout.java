package io.mykit.delay.core;

import io.mykit.delay.config.RedisProperties;
import io.mykit.delay.queue.store.BucketLayout;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisNodes;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Start-up: before anything uses the store, places the jobs by {@code mykit.delay.buckets} ({@link BucketLayout}),
 * through connections of its own (the store's kind: per-node pipelines on a Redis Cluster). A standalone gateway is
 * alone on its key prefix, so it may migrate; in the ZooKeeper modes the node migrates under the layout lock and only
 * while no other node lives. It waits a while for a Redis that is not up yet, then fails the start: running on an
 * unchecked layout would leave jobs where no timer or lookup finds them.
 */
final class StartupLayout {
    private static final Logger log = LoggerFactory.getLogger(StartupLayout.class);
    private static final Duration REDIS_WAIT = Duration.ofSeconds(30);
    /** Reads of one migration step: pruning a long ready list is one script call. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);

    private StartupLayout() {}

    static void ensure(RedisProperties redis, Keys keys) {
        ensure(redis, keys, false);
    }

    /** {@code othersLive}: nodes on the old layout run; moving jobs under their timers could deliver a job twice. */
    static void ensure(RedisProperties redis, Keys keys, boolean othersLive) {
        try (RedisNodes nodes = awaitRedis(redis)) {
            BucketLayout layout = new BucketLayout(nodes, keys);
            if (othersLive && layout.needsMigration()) {
                throw new IllegalStateException("Redis holds jobs placed for another bucket count and other nodes run "
                        + "on it: stop every node before changing mykit.delay.buckets");
            }
            if (othersLive && layout.holdsLegacyDelays()) {
                throw new IllegalStateException("Redis holds waiting jobs in the delay ZSETs of a version before the "
                        + "due slices and other nodes run on it: stop every node of the older version first");
            }
            layout.ensure();
        }
    }

    /** One Redis or a Redis Cluster that answered PING. */
    private static RedisNodes awaitRedis(RedisProperties redis) {
        long deadline = System.nanoTime() + REDIS_WAIT.toNanos();
        while (true) {
            RedisNodes nodes = RedisConnections.open(redis, SOCKET_TIMEOUT);
            try {
                nodes.client().ping();
                return nodes;
            } catch (JedisConnectionException | JedisClusterOperationException e) {
                nodes.close();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            RedisConnections.describe(redis) + " unreachable for " + REDIS_WAIT.toSeconds()
                                    + " s: cannot check the bucket layout",
                            e);
                }
                log.warn(
                        "{} unreachable ({}): waiting to check the bucket layout",
                        RedisConnections.describe(redis),
                        e.getMessage());
                sleepOneSecond();
            }
        }
    }

    private static void sleepOneSecond() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis", e);
        }
    }
}
