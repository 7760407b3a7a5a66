package io.mykit.delay.client;

import java.time.Duration;

/**
 * How a {@link ManualJobHandler} acknowledges its job, from any thread. One of {@link #finish()},
 * {@link #release(Duration)} and {@link #bury(String)} ends the job; a second one throws {@link IllegalStateException}.
 * {@link #touch()} may be called any number of times before.
 */
public interface Acknowledgement {
    /** Done: the job is never delivered again (finishes are batched with the consumer's others). */
    void finish();

    /** Give it back, due again after {@code delay}; counts as a try, so a job out of tries becomes a dead letter. */
    void release(Duration delay);

    /** Keep it: its reservation runs for the consumer's ttr from now. */
    void touch();

    /** A dead letter at once, with a short reason (listed by {@code GET /dead/{topic}}). */
    void bury(String reason);
}
