package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.model.Job;
import java.util.List;

/**
 * How a waiting long-poll is answered, from one of the poll workers (or the caller's thread when no wait is needed).
 */
public interface PollAnswer {
    /** Hands the reserved jobs (none at the deadline) to the client; false when it is gone. */
    boolean jobs(List<Job> jobs);

    /** The reservation failed (a store is down). */
    void failed(RuntimeException e);

    /** Whether the caller lost its right to an answer meanwhile (its token was revoked): the poll then ends. */
    default boolean revoked() {
        return false;
    }
}
