package io.mykit.delay.queue.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Master-slave: the holder of the leader latch owns every bucket, the other nodes none. */
final class MasterSlavePolicy implements OwnershipPolicy {
    private static final Logger log = LoggerFactory.getLogger(MasterSlavePolicy.class);

    private final CuratorCache cache;
    private final int buckets;
    private final LeaderLatch latch;

    /** {@code stopPumping} stops every bucket at once; {@code reconcile} asks the ownership's thread to look again. */
    MasterSlavePolicy(
            CuratorFramework client,
            CuratorCache cache,
            String nodeId,
            int buckets,
            Runnable stopPumping,
            Runnable reconcile) {
        this.cache = cache;
        this.buckets = buckets;
        this.latch = new LeaderLatch(client, ZNodes.LEADER, nodeId);
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                log.info("this node leads now: it takes every bucket");
                reconcile.run();
            }

            @Override
            public void notLeader() {
                // stop pumping before the ownership's thread gets to it: another node may lead already
                stopPumping.run();
                reconcile.run();
            }
        });
    }

    @Override
    public void start() {
        try {
            latch.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the leader latch", e);
        }
    }

    @Override
    public Set<Integer> desired() {
        Set<Integer> wanted = new TreeSet<>();
        if (latch.hasLeadership()) {
            for (int b = 0; b < buckets; b++) {
                wanted.add(b);
            }
        }
        return wanted;
    }

    @Override
    public boolean mayPump() {
        return latch.hasLeadership();
    }

    /**
     * The latch participant with the lowest sequence leads; read from the local cache, never from ZooKeeper, so
     * {@code /cluster} answers at once while ZooKeeper is out of reach.
     */
    @Override
    public Optional<String> leader() {
        return cache.stream()
                .filter(data -> data.getPath().startsWith(ZNodes.LEADER + "/"))
                .min(Comparator.comparing(data -> sequenceOf(data.getPath())))
                .map(data -> new String(data.getData(), StandardCharsets.UTF_8))
                .filter(id -> !id.isEmpty());
    }

    /** The sequence suffix ZooKeeper appends to a latch node's name (fixed width, so string order is number order). */
    private static String sequenceOf(String path) {
        return path.substring(Math.max(0, path.length() - 10));
    }
}
