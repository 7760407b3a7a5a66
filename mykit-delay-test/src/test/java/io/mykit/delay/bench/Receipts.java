package io.mykit.delay.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a broker consumer in the bench got: per job, how late its first message came (receipt time - the message's
 * dueTime), how many came again (delivery is at-least-once), and when the last new job arrived. Thread-safe.
 */
final class Receipts {
    private final Map<String, Long> latenessById = new HashMap<>();
    private long duplicates;
    private long lastNewAt;
    private long errors;
    private String firstError;

    /** A message for job {@code id}, due at {@code dueTime}, received now. */
    synchronized void received(String id, long dueTime) {
        long now = System.currentTimeMillis();
        if (latenessById.putIfAbsent(id, now - dueTime) == null) {
            lastNewAt = now;
        } else {
            duplicates++;
        }
    }

    synchronized void failed(String error) {
        errors++;
        firstError = firstError == null ? error : firstError;
    }

    /** Forgets everything received so far (the warm-up probe). */
    synchronized void clear() {
        latenessById.clear();
        duplicates = 0;
        lastNewAt = 0;
        errors = 0;
        firstError = null;
    }

    synchronized int jobs() {
        return latenessById.size();
    }

    synchronized boolean contains(String id) {
        return latenessById.containsKey(id);
    }

    /** Lateness (ms) of the first receipt of each of {@code ids} that came. */
    synchronized Histogram lateness(Set<String> ids) {
        Histogram lateness = new Histogram();
        ids.forEach(id -> {
            Long ms = latenessById.get(id);
            if (ms != null) {
                lateness.record(ms);
            }
        });
        return lateness;
    }

    /** How many of {@code ids} never came. */
    synchronized long missing(Set<String> ids) {
        return ids.stream().filter(id -> !latenessById.containsKey(id)).count();
    }

    /** How many jobs came that are not among {@code ids}. */
    synchronized long unexpected(Set<String> ids) {
        return latenessById.keySet().stream().filter(id -> !ids.contains(id)).count();
    }

    synchronized long duplicates() {
        return duplicates;
    }

    /** Epoch ms of the last receipt of a job not received before; 0 if none. */
    synchronized long lastNewAt() {
        return lastNewAt;
    }

    synchronized long errors() {
        return errors;
    }

    synchronized String firstError() {
        return firstError;
    }
}
