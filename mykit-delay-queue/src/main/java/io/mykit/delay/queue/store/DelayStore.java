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

    /** {@link #add} for a restore: also skips jobs that ended since the restore began ({@link #beginRestore}). */
    List<String> addUnlessEnded(Collection<Job> jobs);

    /** Puts jobs due at their due time with fresh records, whatever Redis held of them; returns how many. */
    int put(Collection<Job> jobs);

    /**
     * A restore begins: from now until {@link #endRestore}, every job that ends leaves a tombstone which
     * {@link #addUnlessEnded} respects. The mark expires by itself if the restoring node dies; {@link #keepRestoring}
     * renews it.
     */
    void beginRestore();

    void keepRestoring();

    void endRestore();

    /** Leaves a tombstone for a job that ended without leaving Redis here, if a restore is running. */
    void markEnded(String jobId);

    /**
     * Drops the finish marks of these jobs: their Finish is journaled now. A pull finish leaves a mark in the same
     * step that removes the job, because it is answered before its Finish is journaled; while the mark is there
     * {@link #addUnlessEnded} (restores, the stranded-job repair) does not bring the job back.
     */
    void forgetFinishMarks(Collection<String> jobIds);

    /** Leaves a finish mark for a job finished without leaving Redis here (Redis had lost it), dated {@code at}. */
    void markFinished(String jobId, long at);

    /** Up to {@code limitPerBucket} marks per bucket dated before {@code before} (Redis clock): id to finish time. */
    Map<String, Long> finishMarksBefore(long before, int limitPerBucket);

    /**
     * Records this node's ownership term of a bucket (its token, see {@link FenceTokens}); throws
     * {@link FencedException} when a newer term already claimed it.
     */
    void claim(int bucket, String token);

    /** {@link #claim} of this node's current token for many buckets in one round trip; returns those a newer term holds. */
    java.util.Set<Integer> claimAgain(Collection<Integer> buckets);

    /**
     * Moves up to {@code limit} jobs due at {@code now} to in-flight, to be handed over within {@code handOverMs} by the
     * Redis clock. Fenced: throws {@link FencedException} when a newer term owns the bucket.
     */
    PumpResult pumpDue(int bucket, long now, int limit, long handOverMs);

    /**
     * Moves up to {@code limit} jobs due at {@code now} straight to their topics' ready lists, as {@link #pumpDue}
     * followed by {@link #toReady} would, in one atomic call: for a node whose every topic goes to the pull queue.
     * Fenced like {@link #pumpDue}.
     */
    PumpResult pumpDueToReady(int bucket, long now, int limit);

    /**
     * The buckets among these that a newer term than this node's claimed since: jobs this node pumped from them must
     * not be handed over any more (the new owner's sweeper takes them). Empty for unfenced (standalone) buckets.
     */
    java.util.Set<Integer> outranked(Collection<Integer> buckets);

    /** Moves in-flight jobs of one pull topic to its ready list; returns how many moved. Fenced like {@link #pumpDue}. */
    int toReady(int bucket, String topic, List<String> ids);

    /**
     * Reserves up to {@code max} ready jobs of a pull topic for {@code ttrMs} by the Redis clock, looking at every
     * bucket once. Each reservation counts; a job's {@code attempts} tells how many reservations it had before this one.
     */
    List<Job> reserve(String topic, long ttrMs, int max);

    /**
     * Reserves up to {@code max} ready jobs of a pull topic in one bucket (one round trip), telling whether the
     * bucket's ready list of the topic was empty afterwards.
     */
    Reservation reserveFrom(int bucket, String topic, long ttrMs, int max);

    /** Jobs reserved in one bucket; {@code drained}: its ready list of the topic held nothing more just after. */
    record Reservation(List<Job> jobs, boolean drained) {
    }

    /**
     * Undoes a reservation nobody received (its long-poll's client went away): the job is first in its ready list
     * again and the reservation is not counted. {@code job.getAttempts()} is as the reservation returned it.
     */
    boolean unreserve(Job job);

    /**
     * Removes a pulled job: one a puller reserved (in flight, or back in its bucket since) or one in a pull topic's
     * ready list. Refuses one not yet due, one in flight that no puller reserved ({@code IN_FLIGHT}: a broker sender
     * has it) and one due that no puller ever had ({@code NOT_HANDED_OVER}).
     */
    RemoveResult finish(String jobId, long now);

    /** {@link #finish} for many jobs in one round trip; results in the order of {@code jobIds}. */
    List<RemoveResult> finishAll(List<String> jobIds, long now);

    /** Cancels a job still waiting (in its bucket or a ready list); refuses one in flight (handed over or reserved). */
    RemoveResult delete(String jobId);

    /** Outcome of {@link #reschedule}. */
    enum RescheduleResult { RESCHEDULED, NOT_IN_REDIS, NOT_WAITING }

    /** Replaces a job's record and due time while it waits in its bucket (same id, same topic). */
    RescheduleResult reschedule(Job job);

    /**
     * Returns in-flight jobs of these buckets past their deadline (Redis clock) to their bucket, due now; those out of
     * tries (pull reservations) or ttl stay in flight {@code parkMs} longer and come back as spent, to be buried.
     * Result per bucket; a bucket a newer term owns is skipped (and reported to {@link FenceTokens#onFenced}).
     */
    Map<Integer, Swept> sweep(Collection<Integer> buckets, int limitPerBucket, int defaultTries, long parkMs);

    /** A puller gives a reserved job back, due at {@code dueAt}; a job out of tries or ttl comes back as spent. */
    Released release(String jobId, long dueAt, long now, int defaultTries);

    /** Extends a puller's reservation to {@code ttrMs} from now (Redis clock); false when the job is not reserved. */
    boolean touch(String jobId, long ttrMs);

    /** Drops delivered or buried jobs of one bucket from Redis, wherever they are; returns how many were there. */
    int forget(int bucket, List<String> ids);

    /**
     * Parks in-flight jobs of one bucket that are to be buried, before their Dead is journaled: each is stored with
     * its record as given (which must count its tries used up: attempts at least tries) and stays in flight
     * {@code parkMs} longer by the Redis clock, so a sweep hands it back only as spent, to be buried, and a retry
     * leaves it. Returns the ids parked; a job no longer in flight is not. Fenced.
     */
    List<String> park(int bucket, List<Job> jobs, long parkMs);

    /** Puts in-flight jobs of one bucket back at the given due times with updated records; returns how many moved. Fenced. */
    int retry(int bucket, List<Job> jobs, List<Long> dueTimes);

    /** Whether Redis still holds every epoch mark this gateway wrote: false means Redis (or one node of it) lost data. */
    boolean hasEpoch();

    /** Writes the epoch marks (after a restore, or on a first start). */
    void writeEpoch();

    /** Removes every bucket, in-flight set, pool and ready list of this gateway (keeps the epoch); returns keys removed. */
    long clear();

    /** Where a job is, if Redis holds it. */
    Optional<StoredJob> peek(String jobId);

    /** Bucket of a job id. */
    int bucketOf(String jobId);

    /** Number of buckets. */
    int buckets();

    /**
     * Outcome of {@link #finish} and {@link #delete}: {@code IN_FLIGHT} handed over (a cancel: to anyone; a finish:
     * to a broker sender, no puller reserved it), {@code NOT_HANDED_OVER} (a finish) due, never reserved by a puller.
     */
    enum RemoveResult { REMOVED, ABSENT, NOT_DUE, IN_FLIGHT, NOT_HANDED_OVER }

    /**
     * What a sweep of one bucket did: ids returned to the bucket, and jobs out of tries or ttl to bury (attempts: the
     * tries they used, reservations or failed sends).
     */
    record Swept(List<String> returned, List<Job> spent) {
    }

    /** Outcome of a release; {@code job} is set for SPENT (attempts = its reservations). */
    record Released(Outcome outcome, Job job) {
        public enum Outcome { RELEASED, SPENT, NOT_RESERVED, ABSENT }
    }
}
