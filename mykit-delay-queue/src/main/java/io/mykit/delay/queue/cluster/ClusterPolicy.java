package io.mykit.delay.queue.cluster;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Cluster: rendezvous hashing of the buckets over the live members that take buckets. */
final class ClusterPolicy implements OwnershipPolicy {
    private final Membership membership;
    private final String nodeId;
    private final int buckets;

    ClusterPolicy(Membership membership, String nodeId, int buckets) {
        this.membership = membership;
        this.nodeId = nodeId;
        this.buckets = buckets;
    }

    @Override
    public void start() {
        // every member computes the same shares from the same member list: there is nothing to join
    }

    @Override
    public Set<Integer> desired() throws Exception {
        List<String> members = membership.takingBuckets();
        Set<Integer> wanted = new TreeSet<>();
        for (int b = 0; b < buckets; b++) {
            if (nodeId.equals(Rendezvous.owner(b, members))) {
                wanted.add(b);
            }
        }
        return wanted;
    }

    @Override
    public boolean mayPump() {
        return true;
    }

    @Override
    public Optional<String> leader() {
        return Optional.empty();
    }
}
