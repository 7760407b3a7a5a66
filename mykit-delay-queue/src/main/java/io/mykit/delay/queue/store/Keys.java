package io.mykit.delay.queue.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Every Redis key the gateway uses. All keys of bucket i share the hash tag {@code {prefix:b<i>}}, so each Lua script
 * touches a single Redis Cluster slot.
 *
 * <pre>
 * {prefix:b<i>}:due          ZSET  slice -> earliest due time of the slice   index of the non-empty due slices
 * {prefix:b<i>}:due:<s>      ZSET  jobId -> due time (createTime+delay+priority, or a retry's)   waiting; the slice
 *                                  s = DelaySlices.of(jobId) keeps each small (listpack) so a job costs less memory
 * {prefix:b<i>}:delay        ZSET  jobId -> due time   the one-ZSET layout; emptied into the slices at start-up
 * {prefix:b<i>}:inflight     ZSET  jobId -> deadline (ms)                handed over, not yet acked
 * {prefix:b<i>}:job          HASH  jobId -> job record (JobCodec)        the pool: present = alive (package-info)
 * {prefix:b<i>}:ready:<t>    LIST  jobIds of pull topic t                due, waiting for a puller
 * {prefix:b<i>}:reserved     HASH  jobId -> pull reservations so far     tries of pull jobs; dropped when the job ends
 * {prefix:b<i>}:restoring    STRING restores running (counter, expires)  while set, every end leaves a tombstone
 * {prefix:b<i>}:ended        ZSET  jobId -> end time (Redis clock)       tombstones a restore does not re-add
 * {prefix:b<i>}:finished     ZSET  jobId -> finish time (Redis clock)    pull finishes answered whose Finish is not
 *                                  journaled yet: a restore or repair does not re-add them (FinishMarks)
 * {prefix:b<i>}:count        HASH  w:|r:|f:<topic> -> jobs           waiting / ready / in flight per topic
 * {prefix:b<i>}:owner        STRING newest fencing token of the bucket     a step with an older one is refused
 * {prefix:b<i>}:epoch        STRING set once Redis holds this gateway's data; missing = the node of this slot lost it
 * {prefix}:layout            STRING bucket count the jobs are placed by
 * {prefix}:layout-target     STRING bucket count a migration under way moves them to (see BucketLayout)
 * {prefix}:counted           STRING set once every bucket's counters were counted (see the stats package)
 * </pre>
 */
public final class Keys {
    private final String prefix;
    private final int buckets;

    public Keys(String prefix, int buckets) {
        this.prefix = prefix;
        this.buckets = buckets;
    }

    public int buckets() {
        return buckets;
    }

    /** The index of the bucket's due slices: slice number -> the earliest due time in it (see DelaySlices). */
    public String due(int bucket) {
        return tag(bucket) + ":due";
    }

    /** The due slice holding a waiting job of this bucket. */
    public String dueSlice(int bucket, String jobId) {
        return due(bucket) + ":" + DelaySlices.of(jobId);
    }

    /** Every due slice key the bucket can have, so that one DEL empties them with the rest of the bucket. */
    public List<String> dueSlices(int bucket) {
        List<String> slices = new ArrayList<>(DelaySlices.COUNT);
        for (int s = 0; s < DelaySlices.COUNT; s++) {
            slices.add(due(bucket) + ":" + s);
        }
        return slices;
    }

    /** The single delay ZSET of the layout without due slices: start-up and the sweeper move its jobs into them. */
    public String legacyDelay(int bucket) {
        return tag(bucket) + ":delay";
    }

    public String inflight(int bucket) {
        return tag(bucket) + ":inflight";
    }

    public String pool(int bucket) {
        return tag(bucket) + ":job";
    }

    public String ready(int bucket, String topic) {
        return tag(bucket) + ":ready:" + topic;
    }

    public String reserved(int bucket) {
        return tag(bucket) + ":reserved";
    }

    public String restoring(int bucket) {
        return tag(bucket) + ":restoring";
    }

    public String ended(int bucket) {
        return tag(bucket) + ":ended";
    }

    /** Finishes answered but not yet journaled; each leaves once its Finish is written (see the store package-info). */
    public String finished(int bucket) {
        return tag(bucket) + ":finished";
    }

    /** Per-topic stage counters of the bucket, kept by every script that moves a job (see package-info). */
    public String counts(int bucket) {
        return tag(bucket) + ":count";
    }

    /**
     * Present while every bucket's counters hold true counts; gone (a new store, a Redis that lost data) means recount.
     */
    public String counted() {
        return "{" + prefix + "}:counted";
    }

    /** Hand-overs to ready lists per slot of topics, for the long-polls' safety re-check (RedisHandOverCounts). */
    public String handOvers() {
        return "{" + prefix + "}:handovers";
    }

    public String owner(int bucket) {
        return tag(bucket) + ":owner";
    }

    /** One per bucket, so that a cluster node that lost its data misses the marks of the buckets it serves. */
    public String epoch(int bucket) {
        return tag(bucket) + ":epoch";
    }

    public String layout() {
        return "{" + prefix + "}:layout";
    }

    public String layoutTarget() {
        return "{" + prefix + "}:layout-target";
    }

    /** A SCAN pattern matching the ready lists of one bucket. */
    public String readyPattern(int bucket) {
        return tag(bucket) + ":ready:*";
    }

    /** A SCAN pattern matching the ready lists of every bucket (one Redis only: a cluster SCAN needs one hash tag). */
    public String readyPatternAllBuckets() {
        return "{" + prefix + ":b*}:ready:*";
    }

    private String tag(int bucket) {
        return "{" + prefix + ":b" + bucket + "}";
    }
}
