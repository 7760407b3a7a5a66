package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The working set of jobs, in the domain's verbs. Every verb is atomic per bucket; any failure to reach
 * the store is a {@link io.mykit.delay.common.error.StoreUnavailableException}.
 */
public interface DelayStore {

    /** Adds jobs unless Redis already holds them (waiting, in flight or ready); returns the ids added. One round trip. */
    List<String> add(Collection<Job> jobs);

    /** Moves up to {@code limit} jobs due at {@code now} to in-flight with the given hand-over deadline. */
    PumpResult pumpDue(int bucket, long now, int limit, long deadline);

    /** Moves in-flight jobs of one pull topic to its ready list; returns how many moved. */
    int toReady(int bucket, String topic, List<String> ids);

    /** Reserves up to {@code max} ready jobs of a pull topic until {@code deadline}, looking at every bucket once. */
    List<Job> reserve(String topic, long deadline, int max);

    /** Reserves up to {@code max} ready jobs of a pull topic in one bucket (one round trip). */
    List<Job> reserveIn(int bucket, String topic, long deadline, int max);

    /** Removes a delivered job; refuses one not yet due. */
    RemoveResult finish(String jobId, long now);

    /** {@link #finish} for many jobs in one round trip; results in the order of {@code jobIds}. */
    List<RemoveResult> finishAll(List<String> jobIds, long now);

    /** Cancels a job wherever it is. */
    RemoveResult delete(String jobId);

    /** Returns in-flight jobs past their deadline to their bucket, due now; result per bucket. */
    Map<Integer, List<String>> sweep(long now, int limitPerBucket);

    /** Drops delivered or buried jobs of one bucket from Redis, wherever they are; returns how many were there. */
    int forget(int bucket, List<String> ids);

    /** Puts in-flight jobs of one bucket back at the given due times with their updated records; returns how many moved. */
    int retry(int bucket, List<Job> jobs, List<Long> dueTimes);

    /** Whether Redis still holds the epoch key this gateway wrote: false means Redis lost its data. */
    boolean hasEpoch();

    /** Writes the epoch key (after a restore, or on a first start). */
    void writeEpoch();

    /** Removes every bucket, in-flight set, pool and ready list of this gateway (keeps the epoch); returns keys removed. */
    long clear();

    /** Where a job is, if Redis holds it. */
    Optional<StoredJob> peek(String jobId);

    /** Bucket of a job id. */
    int bucketOf(String jobId);

    /** Number of buckets. */
    int buckets();

    enum RemoveResult { REMOVED, ABSENT, NOT_DUE }
}
