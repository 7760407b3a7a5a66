package io.mykit.delay.core.observability;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * A health check that asks a server (Redis, a broker): UP when the probe returns within the timeout, DOWN with the
 * reason otherwise. The probe runs on a thread of its own, at most one at a time, so a probe stuck in a connect
 * (ActiveMQ's failover transport waits for ever) blocks neither the health request nor the next one.
 */
final class ProbeHealthIndicator implements HealthIndicator {
    /** What is checked; throws when the server does not answer. */
    interface Probe {
        void run(long timeoutMs) throws Exception;
    }

    private final String what;
    private final Probe probe;
    private final long timeoutMs;
    private final Executor executor;
    private CompletableFuture<Void> running;

    ProbeHealthIndicator(String what, Probe probe, long timeoutMs) {
        this.what = what;
        this.probe = probe;
        this.timeoutMs = timeoutMs;
        this.executor = runnable -> {
            Thread thread = new Thread(runnable, "mykit-health-" + what);
            thread.setDaemon(true);
            thread.start();
        };
    }

    @Override
    public Health health() {
        try {
            current().get(timeoutMs, TimeUnit.MILLISECONDS);
            return Health.up().build();
        } catch (TimeoutException e) {
            return Health.down()
                    .withDetail("error", what + " did not answer within " + timeoutMs + " ms")
                    .build();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return Health.down()
                    .withDetail("error", cause.getClass().getSimpleName() + ": " + cause.getMessage())
                    .build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.unknown().build();
        }
    }

    /** The probe under way, or a new one when the last has finished. */
    private synchronized CompletableFuture<Void> current() {
        if (running == null || running.isDone()) {
            running = CompletableFuture.runAsync(
                    () -> {
                        try {
                            probe.run(timeoutMs);
                        } catch (RuntimeException e) {
                            throw e;
                        } catch (Exception e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    },
                    executor);
        }
        return running;
    }
}
