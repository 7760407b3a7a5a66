package io.mykit.delay.spring;

import io.mykit.delay.client.ConsumerListener;
import io.mykit.delay.client.ConsumerState;
import io.mykit.delay.client.DelayClient;
import io.mykit.delay.client.DelayConsumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs one {@link DelayConsumer} per {@link DelayListener} method: started once the context is refreshed (the last
 * phase, so every bean a handler calls is ready), stopped first when it closes. Stopping closes every consumer at once:
 * each takes no new job, waits up to the shutdown timeout for its running handlers and gives back the jobs it holds and
 * has not started, so they are due again at once.
 */
public class DelayListenerRegistry implements SmartLifecycle {
    private static final Log log = LogFactory.getLog(DelayListenerRegistry.class);

    private final DelayClient client;
    private final DelayListenerProcessor processor;
    private final ListenerStates states;
    private final List<DelayListenerObserver> observers;
    private final Duration shutdownTimeout;
    private final Map<String, DelayConsumer> consumers = new LinkedHashMap<>();
    private volatile boolean running;

    public DelayListenerRegistry(
            DelayClient client,
            DelayListenerProcessor processor,
            ListenerStates states,
            List<DelayListenerObserver> observers,
            Duration shutdownTimeout) {
        this.client = client;
        this.processor = processor;
        this.states = states;
        this.observers = List.copyOf(observers);
        this.shutdownTimeout = shutdownTimeout;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        try {
            for (ListenerEndpoint endpoint : processor.endpoints()) {
                consumers.put(endpoint.id(), build(endpoint).start());
            }
        } catch (RuntimeException e) {
            // the start fails as a whole: no listener keeps running behind a context that did not start
            stop();
            throw e;
        }
        running = true;
        if (!consumers.isEmpty()) {
            log.info("Started delay listeners " + consumers.keySet() + " on " + client.baseUri());
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        List<Thread> closers = new ArrayList<>();
        consumers.forEach((id, consumer) -> {
            // each consumer waits for its own handlers: close them side by side, not one timeout after another
            Thread closer = new Thread(() -> close(id, consumer), "delay-listener-stop-" + id);
            closer.start();
            closers.add(closer);
        });
        for (Thread closer : closers) {
            try {
                closer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        consumers.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Last to start, first to stop. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

    /** The state of each running listener's consumer, by listener id. */
    public synchronized Map<String, ConsumerState> listenerStates() {
        Map<String, ConsumerState> view = new LinkedHashMap<>();
        consumers.forEach((id, consumer) -> view.put(id, consumer.state()));
        return view;
    }

    private DelayConsumer build(ListenerEndpoint endpoint) {
        List<ConsumerListener> listeners = new ArrayList<>();
        listeners.add(states.track(endpoint.id(), endpoint.topics()));
        for (DelayListenerObserver observer : observers) {
            listeners.add(observer.observe(endpoint.id(), endpoint.topics()));
        }
        try {
            DelayConsumer.Builder builder = client.consumer()
                    .topics(endpoint.topics())
                    .concurrency(endpoint.concurrency())
                    .ttr(endpoint.ttr())
                    .shutdownTimeout(shutdownTimeout)
                    .listener(new CompositeConsumerListener(listeners));
            if (endpoint.credit() > 0) {
                builder.credit(endpoint.credit());
            }
            endpoint.method().handle(builder);
            return builder.build();
        } catch (IllegalArgumentException e) {
            states.untrack(endpoint.id());
            throw ListenerMethod.invalid(endpoint.method().description(), e.getMessage());
        }
    }

    private void close(String id, DelayConsumer consumer) {
        try {
            consumer.close();
        } catch (RuntimeException e) {
            log.warn("Delay listener " + id + " did not close cleanly", e);
        } finally {
            states.untrack(id);
        }
    }
}
