package io.mykit.delay.queue.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the nodes of a namespace on one layout (bucket count and key prefix). Under the /locks/layout lock a starting
 * node compares its layout with the one /layout records: it refuses to start when live members run another one, and
 * records its own when none does.
 */
final class LayoutGuard {
    private static final Logger log = LoggerFactory.getLogger(LayoutGuard.class);
    /** A layout migration takes seconds: a lock held longer than this belongs to a stuck node. */
    private static final Duration LOCK_WAIT = Duration.ofMinutes(5);

    /** A step run while the layout lock is held. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    private final CuratorFramework client;
    private final String layout;
    private final Membership membership;
    private final Consumer<Boolean> layoutCheck;

    /** {@code layoutCheck} gets whether other nodes live, once ZooKeeper agrees: it checks (or migrates) Redis. */
    LayoutGuard(CuratorFramework client, String layout, Membership membership, Consumer<Boolean> layoutCheck) {
        this.client = client;
        this.layout = layout;
        this.membership = membership;
        this.layoutCheck = layoutCheck;
    }

    /**
     * Checks the layout, then runs {@code join}, all under the lock: one node at a time checks (and may migrate) the
     * layout and joins, so a node starting at the same moment with another bucket count sees this one as a live member
     * and refuses.
     */
    void checkThen(Step join) throws Exception {
        InterProcessMutex lock = new InterProcessMutex(client, ZNodes.LAYOUT_LOCK);
        if (!lock.acquire(LOCK_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("another node held the layout lock for " + LOCK_WAIT);
        }
        try {
            boolean othersLive = checkLayout();
            layoutCheck.accept(othersLive);
            join.run();
        } finally {
            lock.release();
        }
    }

    /** Checks ZooKeeper's layout record against this node's; returns whether other nodes live. */
    private boolean checkLayout() throws Exception {
        List<String> live = membership.others();
        byte[] wanted = layout.getBytes(StandardCharsets.UTF_8);
        try {
            client.create().creatingParentsIfNeeded().forPath(ZNodes.LAYOUT, wanted);
            return !live.isEmpty();
        } catch (KeeperException.NodeExistsException recorded) {
            // compared below
        }
        String found = new String(client.getData().forPath(ZNodes.LAYOUT), StandardCharsets.UTF_8);
        if (found.equals(layout)) {
            return !live.isEmpty();
        }
        if (!live.isEmpty()) {
            throw new IllegalStateException("ZooKeeper records layout '" + found + "' for this namespace and nodes "
                    + live + " run it; this node is configured with '" + layout
                    + "'. Use the same mykit.delay.buckets and key prefix, or stop every node before changing them.");
        }
        log.warn("layout changes from '{}' to '{}' (no node runs the old one)", found, layout);
        client.setData().forPath(ZNodes.LAYOUT, wanted);
        return false;
    }
}
