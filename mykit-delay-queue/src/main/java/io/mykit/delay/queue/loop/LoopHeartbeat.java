package io.mykit.delay.queue.loop;

import java.util.Optional;

/**
 * What a background loop last did, in epoch millis (-1: not yet, or no pass under way): health reads it to tell a loop
 * that is dead or stuck from one that sleeps as planned.
 *
 * @param running whether the loop should run (a bucket timer this node does not own is stopped, and that is fine)
 * @param alive whether its thread lives
 * @param passStartedAt when the pass under way began, -1 between passes
 * @param lastPassEndedAt when the last pass ended
 * @param nextPassAt when the last pass asked for the next: the loop's expected period ends there
 * @param failures passes that threw
 * @param restarts times something escaped the passes and they were started again
 */
public record LoopHeartbeat(
        String name,
        boolean running,
        boolean alive,
        long passStartedAt,
        long lastPassEndedAt,
        long nextPassAt,
        long failures,
        long restarts) {

    /**
     * Why the loop is not well at {@code now}, if it is not: its thread died, a pass runs longer than
     * {@code stallAfterMs}, or its next pass is that late.
     */
    public Optional<String> problem(long now, long stallAfterMs) {
        if (!running) {
            return Optional.empty();
        }
        if (!alive) {
            return Optional.of("thread dead");
        }
        if (passStartedAt >= 0 && now - passStartedAt > stallAfterMs) {
            return Optional.of("pass running for " + (now - passStartedAt) + " ms");
        }
        if (passStartedAt < 0 && nextPassAt >= 0 && now - nextPassAt > stallAfterMs) {
            return Optional.of("next pass " + (now - nextPassAt) + " ms overdue");
        }
        return Optional.empty();
    }
}
