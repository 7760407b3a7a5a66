package io.mykit.delay.client;

import java.time.Duration;

/**
 * What a {@link DelayConsumer} does, for metrics and logs; every method does nothing by default. Called on the
 * consumer's threads: return quickly and do not throw (an exception is logged and ignored).
 */
public interface ConsumerListener {
    /** A stream was opened. */
    default void onConnected() {}

    /**
     * A stream ended: a WebSocket close code ({@code 1000} normal, {@code 1001} gateway stopping, {@code 1008} token
     * revoked, {@code 4408} idle, {@code 4429} slow consumer, ...), or the HTTP status of a refused handshake, or 0 for
     * a broken connection or a gateway that went silent; the reason as far as known.
     */
    default void onDisconnected(int code, String reason) {}

    /** A job arrived; its handler starts when a handler thread is free. */
    default void onReceived(ReceivedJob job) {}

    /** The handler returned (or the handler acknowledged): the job is finished. */
    default void onFinished(ReceivedJob job, Duration handling) {}

    /** The job is released, due again after {@code delay}; {@code cause} is what the handler threw, or null. */
    default void onReleased(ReceivedJob job, Duration delay, Throwable cause) {}

    /** The job is buried as a dead letter with {@code reason}. */
    default void onBuried(ReceivedJob job, String reason) {}

    /** The gateway refused an acknowledgement ({@code action}: finish, release, touch, bury) of job {@code id}. */
    default void onRefused(String action, String id, String reason) {}

    /** The gateway answered that it did {@code action} (finish, release, touch, bury) for these job ids. */
    default void onConfirmed(String action, java.util.List<String> ids) {}

    /** The gateway reported an error on the stream. */
    default void onError(String message) {}
}
