package io.mykit.delay.spring;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.mykit.delay.client.ConsumerListener;
import io.mykit.delay.client.ReceivedJob;
import java.time.Duration;
import java.util.List;

/**
 * Counts what the listeners do, {@code mykit.delay.client.jobs} by {@code topic} and {@code outcome} (received,
 * finished, released, buried), and gauges the listeners whose stream is open,
 * {@code mykit.delay.client.listeners.connected}.
 */
public class DelayListenerMetrics implements DelayListenerObserver {
    static final String JOBS = "mykit.delay.client.jobs";
    static final String CONNECTED = "mykit.delay.client.listeners.connected";

    private final MeterRegistry registry;

    public DelayListenerMetrics(MeterRegistry registry, ListenerStates states) {
        this.registry = registry;
        Gauge.builder(CONNECTED, states, ListenerStates::connected)
                .description("delay listeners whose stream to the gateway is open")
                .register(registry);
    }

    @Override
    public ConsumerListener observe(String listenerId, List<String> topics) {
        return new ConsumerListener() {
            @Override
            public void onReceived(ReceivedJob job) {
                count(job, "received");
            }

            @Override
            public void onFinished(ReceivedJob job, Duration handling) {
                count(job, "finished");
            }

            @Override
            public void onReleased(ReceivedJob job, Duration delay, Throwable cause) {
                count(job, "released");
            }

            @Override
            public void onBuried(ReceivedJob job, String reason) {
                count(job, "buried");
            }
        };
    }

    private void count(ReceivedJob job, String outcome) {
        registry.counter(JOBS, "topic", job.topic(), "outcome", outcome).increment();
    }
}
