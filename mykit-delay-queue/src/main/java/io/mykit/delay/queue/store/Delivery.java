package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A job's way from due to done: the pump, the hand-over to ready lists, pullers' reservations and finishes, and the
 * outcomes of broker sends (forget, retry, park) and of deadlines (sweep). Steps that hand jobs over are fenced: they
 * throw {@link FencedException} when a newer ownership term holds the bucket.
 */
public interface Delivery {

    /**
     * Moves up to {@code limit} jobs due at {@code now} to in-flight, to be handed over within {@code handOverMs} by
     * the Redis clock. Fenced.
     */
    PumpResult pumpDue(int bucket, long now, int limit, long handOverMs);

    /**
     * Moves up to {@code limit} jobs due at {@code now} straight to their topics' ready lists, as {@link #pumpDue}
     * followed by {@link #toReady} would, in one atomic call: for a node whose every topic goes to the pull queue.
     * Fenced.
     */
    PumpResult pumpDueToReady(int bucket, long now, int limit);

    /**
     * {@link #pumpDueToReady}, reserving due jobs of each claim's topics for it in the same call (up to its
     * {@code max}, for {@code ttrMs}, counted as a reservation would be) instead of putting them in a ready list: a
     * stream with free credit gets them without a look. Fenced.
     */
    default PumpResult pumpDueToReady(int bucket, long now, int limit, List<Claim> claims) {
        return pumpDueToReady(bucket, now, limit);
    }

    /** Room a stream has for jobs of {@code topics}: at most {@code max}, each reserved for {@code ttrMs}. */
    record Claim(List<String> topics, int max, long ttrMs) {}

    /** Moves in-flight jobs of one pull topic to its ready list; returns how many moved. Fenced. */
    int toReady(int bucket, String topic, List<String> ids);

    /**
     * Reserves up to {@code max} ready jobs of a pull topic for {@code ttrMs} by the Redis clock, looking at every
     * bucket once. Each reservation counts; a job's {@code attempts} tells how many reservations it had before this
     * one.
     */
    List<Job> reserve(String topic, long ttrMs, int max);

    /**
     * Reserves up to {@code max} ready jobs of a pull topic in one bucket (one round trip), telling whether the
     * bucket's ready list of the topic was empty afterwards.
     */
    Reservation reserveFrom(int bucket, String topic, long ttrMs, int max);

    /** Jobs reserved in one bucket; {@code drained}: its ready list of the topic held nothing more just after. */
    record Reservation(List<Job> jobs, boolean drained) {}

    /**
     * Undoes a reservation nobody received (its long-poll's client went away): the job is first in its ready list again
     * and the reservation is not counted. {@code job.getAttempts()} is as the reservation returned it.
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

    /**
     * Outcome of {@link #finish} and {@link JobWrites#delete}: {@code IN_FLIGHT} handed over (a cancel: to anyone; a
     * finish: to a broker sender, no puller reserved it), {@code NOT_HANDED_OVER} (a finish) due, never reserved by a
     * puller.
     */
    enum RemoveResult {
        REMOVED,
        ABSENT,
        NOT_DUE,
        IN_FLIGHT,
        NOT_HANDED_OVER
    }

    /** A puller gives a reserved job back, due at {@code dueAt}; a job out of tries or ttl comes back as spent. */
    Released release(String jobId, long dueAt, long now, int defaultTries);

    /** Outcome of a release; {@code job} is set for SPENT (attempts = its reservations). */
    record Released(Outcome outcome, Job job) {
        public enum Outcome {
            RELEASED,
            SPENT,
            NOT_RESERVED,
            ABSENT
        }
    }

    /** Extends a puller's reservation to {@code ttrMs} from now (Redis clock); false when the job is not reserved. */
    boolean touch(String jobId, long ttrMs);

    /**
     * Returns in-flight jobs of these buckets past their deadline (Redis clock) to their bucket, due now; those out of
     * tries (pull reservations) or ttl stay in flight {@code parkMs} longer and come back as spent, to be buried.
     * Result per bucket; a bucket a newer term owns is skipped (and reported to {@link FenceTokens#onFenced}).
     */
    Map<Integer, Swept> sweep(Collection<Integer> buckets, int limitPerBucket, int defaultTries, long parkMs);

    /**
     * What a sweep of one bucket did: ids returned to the bucket, and jobs out of tries or ttl to bury (attempts: the
     * tries they used, reservations or failed sends).
     */
    record Swept(List<String> returned, List<Job> spent) {}

    /** Drops delivered or buried jobs of one bucket from Redis, wherever they are; returns how many were there. */
    int forget(int bucket, List<String> ids);

    /**
     * Parks in-flight jobs of one bucket that are to be buried, before their Dead is journaled: each is stored with its
     * record as given (which must count its tries used up: attempts at least tries) and stays in flight {@code parkMs}
     * longer by the Redis clock, so a sweep hands it back only as spent, to be buried, and a retry leaves it. Returns
     * the ids parked; a job no longer in flight is not. Fenced.
     */
    List<String> park(int bucket, List<Job> jobs, long parkMs);

    /**
     * Puts in-flight jobs of one bucket back at the given due times with updated records; returns how many moved.
     * Fenced.
     */
    int retry(int bucket, List<Job> jobs, List<Long> dueTimes);
}
