package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.model.Job;
import java.util.List;

/**
 * Where a {@link Stream} writes what it reserved: the consumer's connection. Called from the poll workers and timers.
 */
public interface StreamOutlet {
    /** Writes the jobs of one look; false when the connection is ending (the stream's close gives them back). */
    boolean jobs(List<Job> jobs);

    /** The gateway is stopping: the connection ends now, and with it the stream. */
    void stopping();
}
