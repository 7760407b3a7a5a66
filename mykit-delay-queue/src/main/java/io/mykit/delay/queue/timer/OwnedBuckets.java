package io.mykit.delay.queue.timer;

import java.util.Collection;

/** The buckets this node owns right now: their in-flight jobs are this node's to give back. */
@FunctionalInterface
public interface OwnedBuckets {

    /** The owned buckets at this moment; asked before every sweep, so a change of ownership takes effect at once. */
    Collection<Integer> owned();
}
