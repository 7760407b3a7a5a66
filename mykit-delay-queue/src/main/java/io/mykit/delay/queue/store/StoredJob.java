package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;

/**
 * A job as Redis holds it right now, with where it sits on its way and how many times pullers reserved it (the tries of
 * a pull job; a broker job counts its failed sends in its record's attempts).
 */
public record StoredJob(Job job, Stage stage, long score, int reservations) {
    public enum Stage {
        /** In its delay bucket; score = due time. */
        DELAYED,
        /** Handed over or reserved; score = deadline. */
        IN_FLIGHT,
        /** In a pull topic's ready list, waiting for a puller. */
        READY
    }

    /** A job no puller reserved. */
    public StoredJob(Job job, Stage stage, long score) {
        this(job, stage, score, 0);
    }
}
