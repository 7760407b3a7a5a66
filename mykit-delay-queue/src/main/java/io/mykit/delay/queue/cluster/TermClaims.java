package io.mykit.delay.queue.cluster;

import java.util.Collection;
import java.util.Set;

/** Records this node's current terms of some buckets in Redis (see {@code FenceTokens}). */
@FunctionalInterface
public interface TermClaims {

    /** Claims this node's current token of each bucket in one round trip; returns the buckets a newer term holds. */
    Set<Integer> claimAgain(Collection<Integer> buckets);
}
