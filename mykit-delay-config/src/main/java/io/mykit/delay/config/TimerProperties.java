package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.timer.*}: the per-bucket timers that move due jobs, and the sweeper. */
public class TimerProperties {
    /** Whether this node runs the bucket timers and the sweeper. */
    private boolean enabled = true;
    /** Most due jobs one pump moves; a full batch pumps again at once. */
    private int batchSize = 200;
    /** Longest a timer sleeps without looking (catches pushes made through other nodes). */
    private Duration maxIdle = Duration.ofMillis(500);
    /** Deadline for handing a pumped job to its target; past it the sweeper returns the job. */
    private Duration dispatchTimeout = Duration.ofSeconds(30);
    /** How often in-flight entries past their deadline are looked for. */
    private Duration sweepInterval = Duration.ofMillis(500);
    /** A background loop whose pass runs longer, or whose next pass is this late, turns health and readiness DOWN. */
    private Duration stallAfter = Duration.ofSeconds(60);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public Duration getMaxIdle() {
        return maxIdle;
    }

    public void setMaxIdle(Duration maxIdle) {
        this.maxIdle = maxIdle;
    }

    public Duration getDispatchTimeout() {
        return dispatchTimeout;
    }

    public void setDispatchTimeout(Duration dispatchTimeout) {
        this.dispatchTimeout = dispatchTimeout;
    }

    public Duration getSweepInterval() {
        return sweepInterval;
    }

    public void setSweepInterval(Duration sweepInterval) {
        this.sweepInterval = sweepInterval;
    }

    public Duration getStallAfter() {
        return stallAfter;
    }

    public void setStallAfter(Duration stallAfter) {
        this.stallAfter = stallAfter;
    }

    void validate(List<String> errors) {
        check(errors, batchSize >= 1 && batchSize <= 10_000, "mykit.delay.timer.batch-size must be 1..10000");
        check(errors, positive(maxIdle), "mykit.delay.timer.max-idle must be > 0");
        check(errors, positive(dispatchTimeout), "mykit.delay.timer.dispatch-timeout must be > 0");
        check(errors, positive(sweepInterval), "mykit.delay.timer.sweep-interval must be > 0");
        check(errors, positive(stallAfter), "mykit.delay.timer.stall-after must be > 0");
    }
}
