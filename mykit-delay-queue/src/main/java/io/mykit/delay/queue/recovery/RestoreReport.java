package io.mykit.delay.queue.recovery;

/**
 * Progress or outcome of a restore: journal rows scanned (not yet ended), jobs added to Redis, jobs Redis already
 * held, jobs left out because their due time had passed (expire=false).
 */
public record RestoreReport(boolean running, boolean includeExpired, long scanned, long restored, long alreadyStored,
                            long skippedExpired, long startedAt, long tookMs) {
}
