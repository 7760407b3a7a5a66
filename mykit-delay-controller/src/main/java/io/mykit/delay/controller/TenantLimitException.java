package io.mykit.delay.controller;

/** A tenant past one of its limits: 429, with how many seconds to wait before trying again. */
public class TenantLimitException extends RuntimeException {
    private final long retryAfterSeconds;

    TenantLimitException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
