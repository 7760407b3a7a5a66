package io.mykit.delay.core.observability;

import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RestoreReport;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * {@value #CODE} while a restore rebuilds Redis from the journal, else UP. The status order in application.yml makes it
 * count as UP for /actuator/health and as 503 for the readiness group: the node is alive, but not complete yet.
 */
final class RestoreHealthIndicator implements HealthIndicator {
    static final String CODE = "RESTORING";
    private static final Status RESTORING = new Status(CODE, "a restore from the journal is running");

    private final RecoveryService recovery;

    RestoreHealthIndicator(RecoveryService recovery) {
        this.recovery = recovery;
    }

    @Override
    public Health health() {
        boolean running = recovery.isRunning();
        Health.Builder builder = running ? Health.status(RESTORING) : Health.up();
        builder.withDetail("running", running);
        RestoreReport report = recovery.status();
        if (report != null) {
            // the running restore's progress, or how the last one ended
            builder.withDetail("scanned", report.scanned())
                    .withDetail("restored", report.restored())
                    .withDetail("startedAt", report.startedAt());
        }
        return builder.build();
    }
}
