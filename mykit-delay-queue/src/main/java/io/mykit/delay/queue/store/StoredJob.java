package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;

/** A job as Redis holds it right now, with where it sits on its way. */
public record StoredJob(Job job, Stage stage, long score) {
    public enum Stage {
        /** In its delay bucket; score = due time. */
        DELAYED,
        /** Handed over or reserved; score = deadline. */
        IN_FLIGHT,
        /** In a pull topic's ready list, waiting for a puller. */
        READY
    }
}
