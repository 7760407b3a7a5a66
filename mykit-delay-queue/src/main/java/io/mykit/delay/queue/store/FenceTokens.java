package io.mykit.delay.queue.store;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;

/**
 * This node's fencing token per bucket, passed to every bucket step that hands jobs over. An empty token (standalone)
 * is not checked. A token stays after the bucket is released: jobs pumped in that term may still be handed over until a
 * newer term claims the bucket, and Redis refuses them from then on.
 */
public final class FenceTokens {
    /** Tokens are ZooKeeper zxids, 64-bit: 20 digits hold any of them, so string order is number order. */
    private static final int WIDTH = 20;

    private final AtomicReferenceArray<String> tokens;
    private final AtomicLong refusals = new AtomicLong();
    private volatile IntConsumer onFenced = bucket -> {};

    /** Unfenced tokens (standalone): every step runs unchecked. */
    public FenceTokens(int buckets) {
        this(buckets, "");
    }

    private FenceTokens(int buckets, String initial) {
        tokens = new AtomicReferenceArray<>(buckets);
        for (int b = 0; b < buckets; b++) {
            tokens.set(b, initial);
        }
    }

    /**
     * Tokens of a ZooKeeper-mode node: a bucket it never claimed carries the lowest token, not the unchecked empty one,
     * so a step on it is refused wherever some node holds a term.
     */
    public static FenceTokens fenced(int buckets) {
        return new FenceTokens(buckets, format(0));
    }

    /** The token of a term numbered {@code zxid}, in the fixed-width form the scripts compare. */
    public static String format(long zxid) {
        if (zxid < 0) {
            throw new IllegalArgumentException("a zxid is never negative: " + zxid);
        }
        String digits = Long.toString(zxid);
        return "0".repeat(WIDTH - digits.length()) + digits;
    }

    public String token(int bucket) {
        return tokens.get(bucket);
    }

    public void set(int bucket, String token) {
        tokens.set(bucket, token);
    }

    /** Who to tell when Redis refuses a step of a bucket (the ownership manager stops it). */
    public void onFenced(IntConsumer listener) {
        this.onFenced = listener;
    }

    /** Script calls refused as FENCED so far. */
    public long refusals() {
        return refusals.get();
    }

    FencedException refused(int bucket) {
        refusals.incrementAndGet();
        onFenced.accept(bucket);
        return new FencedException(bucket);
    }
}
