package io.mykit.delay.client;

/**
 * Handles one received job and acknowledges it itself, now or later, through {@code ack}. The consumer does nothing to
 * such a job on its own: not finish, not release, not touch, whatever the handler returns or throws. A job not yet
 * acknowledged counts against the consumer's credit until it is, or until the connection ends (the gateway then gives
 * it back to be delivered again).
 */
@FunctionalInterface
public interface ManualJobHandler {
    void handle(ReceivedJob job, Acknowledgement ack) throws Exception;
}
