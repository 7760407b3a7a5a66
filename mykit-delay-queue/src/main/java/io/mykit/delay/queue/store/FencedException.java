package io.mykit.delay.queue.store;

/** Redis refused a bucket step: a newer ownership term of the bucket exists, so this node must stop pumping it. */
public class FencedException extends RuntimeException {
    private final int bucket;

    public FencedException(int bucket) {
        super("bucket " + bucket + " is owned by a newer term: this node's step was refused (FENCED)");
        this.bucket = bucket;
    }

    public int bucket() {
        return bucket;
    }
}
