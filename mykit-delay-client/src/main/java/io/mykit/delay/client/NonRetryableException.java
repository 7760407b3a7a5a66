package io.mykit.delay.client;

/**
 * Thrown by a {@link JobHandler} for a job that no retry can help (a body it cannot read, an order that no longer
 * exists): the consumer buries the job as a dead letter at once, with this exception's message as the reason.
 */
public class NonRetryableException extends RuntimeException {
    public NonRetryableException(String message) {
        super(message);
    }

    public NonRetryableException(String message, Throwable cause) {
        super(message, cause);
    }
}
