package io.mykit.delay.queue.recovery;

/**
 * Progress or outcome of a restore: journal rows scanned (not yet ended), jobs added to Redis, jobs Redis already held,
 * jobs left out because their due time had passed (expire=false), jobs left to their push (still WaitPut: the push adds
 * them, or the stranded-job repairer if it failed).
 */
public record RestoreReport(
        boolean running,
        boolean includeExpired,
        long scanned,
        long restored,
        long alreadyStored,
        long skippedExpired,
        long leftToPush,
        long startedAt,
        long tookMs) {}
