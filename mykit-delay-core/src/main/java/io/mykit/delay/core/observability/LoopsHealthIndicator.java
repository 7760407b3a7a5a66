package io.mykit.delay.core.observability;

import io.mykit.delay.queue.loop.LoopHeartbeat;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * DOWN when an engine loop that should run has a dead thread, a pass running past the stall limit, or a next pass that
 * late; the details name each such loop and why, and count the loops and their failed and restarted passes.
 */
final class LoopsHealthIndicator implements HealthIndicator {
    private final Supplier<List<LoopHeartbeat>> loops;
    private final Clock clock;
    private final long stallAfterMs;

    LoopsHealthIndicator(Supplier<List<LoopHeartbeat>> loops, Clock clock, long stallAfterMs) {
        this.loops = loops;
        this.clock = clock;
        this.stallAfterMs = stallAfterMs;
    }

    @Override
    public Health health() {
        long now = clock.millis();
        Map<String, String> unwell = new LinkedHashMap<>();
        int running = 0;
        long failures = 0;
        long restarts = 0;
        for (LoopHeartbeat beat : loops.get()) {
            running += beat.running() ? 1 : 0;
            failures += beat.failures();
            restarts += beat.restarts();
            beat.problem(now, stallAfterMs).ifPresent(problem -> unwell.put(beat.name(), problem));
        }
        Health.Builder builder = unwell.isEmpty() ? Health.up() : Health.down();
        return builder.withDetail("running", running)
                .withDetail("failedPasses", failures)
                .withDetail("restarts", restarts)
                .withDetail("stallAfterMs", stallAfterMs)
                .withDetail("unwell", unwell)
                .build();
    }
}
