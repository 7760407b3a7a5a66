package io.mykit.delay.spring;

import io.mykit.delay.client.ConsumerListener;
import io.mykit.delay.client.ReceivedJob;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** Tells several consumer listeners in turn; one that throws does not keep the others from hearing. */
final class CompositeConsumerListener implements ConsumerListener {
    private static final Log log = LogFactory.getLog(CompositeConsumerListener.class);

    private final List<ConsumerListener> listeners;

    CompositeConsumerListener(List<ConsumerListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    private void each(Consumer<ConsumerListener> call) {
        for (ConsumerListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                log.warn("a delay listener observer failed", e);
            }
        }
    }

    @Override
    public void onConnected() {
        each(ConsumerListener::onConnected);
    }

    @Override
    public void onDisconnected(int code, String reason) {
        each(listener -> listener.onDisconnected(code, reason));
    }

    @Override
    public void onReceived(ReceivedJob job) {
        each(listener -> listener.onReceived(job));
    }

    @Override
    public void onFinished(ReceivedJob job, Duration handling) {
        each(listener -> listener.onFinished(job, handling));
    }

    @Override
    public void onReleased(ReceivedJob job, Duration delay, Throwable cause) {
        each(listener -> listener.onReleased(job, delay, cause));
    }

    @Override
    public void onBuried(ReceivedJob job, String reason) {
        each(listener -> listener.onBuried(job, reason));
    }

    @Override
    public void onRefused(String action, String id, String reason) {
        each(listener -> listener.onRefused(action, id, reason));
    }

    @Override
    public void onError(String message) {
        each(listener -> listener.onError(message));
    }
}
