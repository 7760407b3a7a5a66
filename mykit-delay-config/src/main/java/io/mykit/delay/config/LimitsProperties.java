package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.limits.*}: input limits checked before anything is stored. */
public class LimitsProperties {
    /** Largest body, in UTF-8 bytes. */
    private int maxBodyBytes = 64 * 1024;
    /** Most jobs in one /push/batch, most a batch pull reserves (its count), most ids in one batch finish. */
    private int maxBatchSize = 1000;
    /** Longest delay (and ttl) accepted. */
    private Duration maxDelay = Duration.ofDays(366);
    /** Tries of a job that names none. */
    private int defaultTries = 16;
    /**
     * Largest HTTP request body, in bytes, of the routes that take many jobs or ids (/push/batch, dead-letter calls); a
     * single push takes what one job of max-body-bytes can need, /finish/batch what max-batch-size ids can.
     */
    private long maxRequestBytes = 32L * 1024 * 1024;

    public int getMaxBodyBytes() {
        return maxBodyBytes;
    }

    public void setMaxBodyBytes(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    public int getMaxBatchSize() {
        return maxBatchSize;
    }

    public void setMaxBatchSize(int maxBatchSize) {
        this.maxBatchSize = maxBatchSize;
    }

    public Duration getMaxDelay() {
        return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
        this.maxDelay = maxDelay;
    }

    public int getDefaultTries() {
        return defaultTries;
    }

    public void setDefaultTries(int defaultTries) {
        this.defaultTries = defaultTries;
    }

    public long getMaxRequestBytes() {
        return maxRequestBytes;
    }

    public void setMaxRequestBytes(long maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
    }

    void validate(List<String> errors) {
        check(errors, maxBodyBytes >= 1, "mykit.delay.limits.max-body-bytes must be >= 1");
        check(errors, maxBatchSize >= 1, "mykit.delay.limits.max-batch-size must be >= 1");
        check(errors, positive(maxDelay), "mykit.delay.limits.max-delay must be > 0");
        check(errors, defaultTries >= 1, "mykit.delay.limits.default-tries must be >= 1");
        check(errors, maxRequestBytes >= 1, "mykit.delay.limits.max-request-bytes must be >= 1");
    }
}
