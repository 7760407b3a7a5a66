package io.mykit.delay.queue.cluster;

import java.util.List;

/**
 * One node's view of the cluster. {@code owner} and {@code token} of a bucket are what ZooKeeper says (null when no
 * node holds it, or in standalone mode); {@code pumping} is whether this node's timer of the bucket runs.
 */
public record ClusterView(
        String mode,
        String node,
        String zookeeper,
        String leader,
        List<String> members,
        long fencedCalls,
        long restores,
        List<BucketView> buckets) {

    public record BucketView(int bucket, String owner, String token, boolean pumping) {}
}
