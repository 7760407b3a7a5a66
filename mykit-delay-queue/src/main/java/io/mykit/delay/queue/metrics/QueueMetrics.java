package io.mykit.delay.queue.metrics;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import java.util.List;

/**
 * What the engine tells about its work, for metrics. The engine calls these on its hot paths, so an implementation only
 * counts in memory; it never blocks and never throws. {@code target} is a delivery target's name, or null when the
 * caller does not know it (the implementation then goes by the topic's route).
 */
public interface QueueMetrics {

    /** Counts nothing: the engine's default, and what tests that build engine classes by hand get. */
    QueueMetrics NONE = new QueueMetrics() {};

    /** One push call ended: its jobs, how long it took until they were durable (or failed), and whether it failed. */
    default void pushed(List<Job> jobs, long nanos, boolean failed) {}

    /** A journal writer ({@code push} or {@code state}) committed {@code rows} rows in {@code nanos}. */
    default void journalBatch(String writer, int rows, long nanos) {}

    /** Due jobs were handed to a target (pumped from their bucket). */
    default void handedOver(String target, List<Job> jobs) {}

    /** The target confirmed the job (broker ack, log written, puller finished it). */
    default void delivered(String target, Job job) {}

    /** A hand-over of the job failed (it is retried or buried next). */
    default void failed(String target, Job job) {}

    /** The job goes back to its bucket with a backoff after a failed hand-over. */
    default void retried(String target, Job job) {}

    /** The job used up its tries or ttl and was buried as a dead letter. */
    default void dead(String target, Job job) {}

    /**
     * The journal left out {@code jobs} ends in {@code status} (a broker's Finish after a burial's Dead, a repeated
     * Dead, a send confirmed after a dead letter was dropped): each job had ended already, and its first end stays.
     */
    default void endsKept(JobStatus status, int jobs) {}
}
