package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import java.util.List;

/** Sees every batch of due jobs as the dispatcher hands it to its targets (the stats' lateness recorder). */
@FunctionalInterface
public interface HandOverListener {
    /** Listens to nothing. */
    HandOverListener NONE = jobs -> {};

    /** {@code jobs} of one pump go to their targets now; called on the timer's thread, so it must not block. */
    void handedOver(List<Job> jobs);
}
