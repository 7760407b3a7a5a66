package io.mykit.delay.client;

/**
 * Handles one received job; the consumer acknowledges it by the outcome. Returning finishes the job; throwing
 * {@link NonRetryableException} buries it as a dead letter; any other exception releases it, due again after a back-off
 * that grows with its attempts, until its tries are spent and the gateway buries it.
 */
@FunctionalInterface
public interface JobHandler {
    void handle(ReceivedJob job) throws Exception;
}
