package io.mykit.delay.queue.cluster;

import java.util.Collection;
import java.util.List;

/** Which buckets this node pumps now. Standalone: all of them; master-slave and cluster: decided through ZooKeeper. */
public interface BucketOwnership {

    /** Joins (ZooKeeper modes) and starts the timers of the buckets this node owns, now and as ownership changes. */
    void start();

    /** Stops every owned bucket's timer, then lets the buckets go so another node takes them over at once. */
    void stop();

    /** Whether this node may pump {@code bucket} right now (owns it and its ZooKeeper link is up). */
    boolean isActive(int bucket);

    /** The buckets this node may pump right now. */
    Collection<Integer> activeBuckets();

    /** Whether the once-per-cluster chores (stranded-job repair, Redis-loss restore) are this node's to run. */
    boolean runsChores();

    /** Live members (node ids), this one included. */
    List<String> members();

    /** This node's view of the cluster, for {@code GET /cluster}. */
    ClusterView view();
}
