package io.mykit.delay.spring;

import io.mykit.delay.client.ConsumerListener;
import java.util.List;

/**
 * A bean told what each {@link DelayListener}'s consumer does (logs, metrics of your own): asked once per listener, as
 * the listeners start, for the {@link ConsumerListener} of that listener.
 */
@FunctionalInterface
public interface DelayListenerObserver {
    ConsumerListener observe(String listenerId, List<String> topics);
}
