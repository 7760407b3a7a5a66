package io.mykit.delay.queue.store;

/** Which bucket holds a job: every part of the store places jobs by the same bucket count. */
public interface BucketPlacement {

    /** Bucket of a job id. */
    int bucketOf(String jobId);

    /** Number of buckets. */
    int buckets();
}
