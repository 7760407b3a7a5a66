package io.mykit.delay.queue.cluster;

import java.util.Optional;
import java.util.Set;

/** Which buckets this node should own, one implementation per ZooKeeper mode. Asked only by a node whose timers run. */
interface OwnershipPolicy {

    /** Joins whatever the mode decides by (master-slave: the leader election). */
    void start();

    /** The buckets this node should own now (called on the ownership's thread). */
    Set<Integer> desired() throws Exception;

    /** Whether the mode lets this node pump at all right now (master-slave: only while it leads). */
    boolean mayPump();

    /** The leading node as the local cache last saw it (master-slave), empty otherwise; asked by any node. */
    Optional<String> leader();
}
