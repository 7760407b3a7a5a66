package io.mykit.delay.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * UP while every listener has its stream open or lost it less than the grace ago (a gateway restart, a reconnect); DOWN
 * once one has been without a stream for longer. Details per listener: topics, connected, since, last close.
 */
public class DelayListenersHealthIndicator extends AbstractHealthIndicator {
    private final ListenerStates states;
    private final Duration grace;

    public DelayListenersHealthIndicator(ListenerStates states, Duration grace) {
        super("delay listeners health check failed");
        this.states = states;
        this.grace = grace;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Instant now = states.now();
        boolean down = false;
        for (ListenerStates.ListenerState state : states.snapshot().values()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("topics", state.topics());
            details.put("connected", state.connected());
            details.put("since", state.since().toString());
            if (state.lastCloseCode() >= 0) {
                details.put("lastCloseCode", state.lastCloseCode());
                if (state.lastReason() != null) {
                    details.put("lastCloseReason", state.lastReason());
                }
            }
            if (!state.connected() && Duration.between(state.since(), now).compareTo(grace) > 0) {
                down = true;
            }
            builder.withDetail(state.id(), details);
        }
        if (down) {
            builder.down();
        } else {
            builder.up();
        }
    }
}
