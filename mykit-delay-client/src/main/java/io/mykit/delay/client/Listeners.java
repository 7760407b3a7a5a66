package io.mykit.delay.client;

import java.lang.System.Logger.Level;
import java.time.Duration;

/** Calls the consumer's {@link ConsumerListener}, so that an exception of the listener never stops the consumer. */
final class Listeners {
    private static final System.Logger LOG = System.getLogger(DelayConsumer.class.getName());

    private final ConsumerListener listener;

    Listeners(ConsumerListener listener) {
        this.listener = listener;
    }

    void connected() {
        call(listener::onConnected);
    }

    void disconnected(int code, String reason) {
        call(() -> listener.onDisconnected(code, reason));
    }

    void received(ReceivedJob job) {
        call(() -> listener.onReceived(job));
    }

    void finished(ReceivedJob job, Duration handling) {
        call(() -> listener.onFinished(job, handling));
    }

    void released(ReceivedJob job, Duration delay, Throwable cause) {
        call(() -> listener.onReleased(job, delay, cause));
    }

    void buried(ReceivedJob job, String reason) {
        call(() -> listener.onBuried(job, reason));
    }

    void confirmed(String action, java.util.List<String> ids) {
        call(() -> listener.onConfirmed(action, ids));
    }

    void refused(String action, String id, String reason) {
        call(() -> listener.onRefused(action, id, reason));
    }

    void error(String message) {
        call(() -> listener.onError(message));
    }

    private static void call(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a ConsumerListener threw; ignored", e);
        }
    }
}
