package io.mykit.delay.core.observability;

import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.cluster.ClusterView;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * UP while this node's ZooKeeper session is connected, from the state Curator last reported (no call to ZooKeeper, so
 * the answer is immediate while ZooKeeper is out of reach). A suspended or lost session stops the node's buckets.
 */
final class ZooKeeperHealthIndicator implements HealthIndicator {
    private final BucketOwnership ownership;

    ZooKeeperHealthIndicator(BucketOwnership ownership) {
        this.ownership = ownership;
    }

    @Override
    public Health health() {
        ClusterView view = ownership.view();
        String state = view.zookeeper();
        boolean connected = "CONNECTED".equals(state) || "RECONNECTED".equals(state);
        return (connected ? Health.up() : Health.down())
                .withDetail("state", String.valueOf(state))
                .withDetail("members", view.members().size())
                .withDetail("ownedBuckets", ownership.activeBuckets().size())
                .build();
    }
}
