package io.mykit.delay.queue.loop;

/** Makes the timer of a bucket pump no later than a time: on this node, or on whichever node owns the bucket. */
@FunctionalInterface
public interface BucketWaker {

    /** Wakes {@code bucket}'s timer by {@code time} (epoch ms); a time already past means at once. */
    void wake(int bucket, long time);
}
