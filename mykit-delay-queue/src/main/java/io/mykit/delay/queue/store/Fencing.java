package io.mykit.delay.queue.store;

import java.util.Collection;
import java.util.Set;

/**
 * Ownership terms of buckets in Redis: each bucket keeps the newest fencing token that claimed it
 * ({@link FenceTokens}), and the fenced {@link Delivery} steps refuse a caller holding an older one.
 */
public interface Fencing {

    /**
     * Records this node's ownership term of a bucket (its token); throws {@link FencedException} when a newer term
     * already claimed it.
     */
    void claim(int bucket, String token);

    /** {@link #claim} of this node's tokens for many buckets in one round trip; returns those newer terms hold. */
    Set<Integer> claimAgain(Collection<Integer> buckets);

    /**
     * The buckets among these that a newer term than this node's claimed since: jobs this node pumped from them must
     * not be handed over any more (the new owner's sweeper takes them). Empty for unfenced (standalone) buckets.
     */
    Set<Integer> outranked(Collection<Integer> buckets);
}
