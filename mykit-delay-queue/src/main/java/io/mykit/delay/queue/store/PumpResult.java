package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import java.util.List;

/**
 * The due jobs one pump moved, and the earliest score left in the bucket (-1 when empty). {@code jobs} holds every job
 * pumped; {@code reserved} those of them reserved for a stream's claim in the same call ({@link Delivery.Claim}).
 */
public record PumpResult(List<Job> jobs, long nextDue, List<Reserved> reserved) {

    public PumpResult(List<Job> jobs, long nextDue) {
        this(jobs, nextDue, List.of());
    }

    /**
     * A job reserved for the claim at index {@code claim} of the pump's claims; its attempts are its reservations
     * before this one, as a reservation answers them.
     */
    public record Reserved(int claim, Job job) {}
}
