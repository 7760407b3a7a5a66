package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import java.util.List;

/**
 * Where due jobs of a topic go. The jobs arrive in the bucket's in-flight set with a hand-over deadline; a target
 * either acknowledges them (delivered) or leaves them there, and the sweeper returns them after the deadline.
 */
public interface DeliveryTarget {

    /** The name routes refer to ({@code pull}, {@code rocketmq}, {@code activemq}, {@code log}). */
    String name();

    /** Hands over due jobs of one bucket; may throw, the jobs then wait for the sweeper. */
    void deliver(int bucket, List<Job> jobs);
}
