package io.mykit.delay.test.recovery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the gateway answered its clients about each job during a load, timed with {@link System#nanoTime()}, and the
 * violations those answers prove. A job counts as ended only when an answer said so: {@code /finish} 200, an id in
 * {@code /finish/batch}'s {@code finished}, or {@code /delete} 200. A reservation is timed by when its request was
 * sent, so it counts against an end only if it was asked for after that end was answered.
 */
final class LoadLedger {
    static final long NEVER = Long.MAX_VALUE;
    /** The job id of a violation that concerns no single job. */
    static final String NO_JOB = "-";

    private static final int EXAMPLES_PER_KIND = 8;

    enum Kind {
        /** Reserved by a request sent after the job's finish or cancel had been answered. */
        RESERVED_AFTER_END,
        /** Both a finish and a cancel of the job were answered as done. */
        FINISHED_AND_CANCELLED,
        /** /reStoreJob of a job whose end had been answered did not answer 409. */
        RESTORE_JOB_NOT_REFUSED,
        /** An ended job that Redis holds once the load stopped and the journal settled. */
        ENDED_STILL_IN_REDIS,
        /** An ended job that Redis holds after the final clearAll and restore. */
        ENDED_BACK_IN_REDIS,
        /** A job pushed with 200, never ended, that Redis lacks after the final restore. */
        PENDING_MISSING,
        /** A job whose journal status is ended though no finish or cancel of it was answered as done. */
        ENDED_WITHOUT_ANSWER,
        /** An answer no correct gateway gives: a 500, a 404 for a job pushed with 200, a job of another topic. */
        UNEXPECTED_ANSWER
    }

    record Violation(Kind kind, String jobId, String detail) {
        @Override
        public String toString() {
            return kind + " " + jobId + ": " + detail;
        }
    }

    /** One job as its clients saw it; created by whichever answer names it first. */
    static final class Trace {
        final String id;
        private String topic;
        private long delayMs = -1;
        private long finishedAt = NEVER;
        private long cancelledAt = NEVER;
        private long reAddedByRestoreJobAt = NEVER;
        private boolean uncertain;
        private final List<Long> reservedAt = new ArrayList<>(1);

        private Trace(String id) {
            this.id = id;
        }

        synchronized boolean pushed() {
            return delayMs >= 0;
        }

        synchronized String topic() {
            return topic;
        }

        synchronized long delayMs() {
            return delayMs;
        }

        /** When the first answer saying the job ended came, or {@link #NEVER}. */
        synchronized long endedAt() {
            return Math.min(finishedAt, cancelledAt);
        }

        synchronized boolean finished() {
            return finishedAt != NEVER;
        }

        synchronized boolean cancelled() {
            return cancelledAt != NEVER;
        }

        /** A finish or cancel of it got no answer or a 5xx: whether it ended is unknown. */
        synchronized boolean uncertain() {
            return uncertain;
        }

        synchronized List<Violation> judgeAnswers() {
            List<Violation> found = new ArrayList<>();
            long ended = endedAt();
            List<Long> late =
                    reservedAt.stream().filter(sent -> sent > ended).sorted().toList();
            if (!late.isEmpty()) {
                found.add(new Violation(
                        Kind.RESERVED_AFTER_END,
                        id,
                        "reserved " + late.size() + " time(s) by requests"
                                + " sent after its " + (finishedAt <= cancelledAt ? "finish" : "cancel")
                                + " was answered (first "
                                + millis(late.get(0) - ended) + " ms after)"
                                + (reAddedByRestoreJobAt < late.get(0) ? "; a /reStoreJob had re-added it" : "")));
            }
            if (finished() && cancelled()) {
                found.add(new Violation(
                        Kind.FINISHED_AND_CANCELLED,
                        id,
                        finishedAt < cancelledAt
                                ? "cancel answered 200 " + millis(cancelledAt - finishedAt)
                                        + " ms after finish answered finished"
                                : "finish answered finished " + millis(finishedAt - cancelledAt)
                                        + " ms after cancel answered 200"));
            }
            return found;
        }
    }

    private final Map<String, Trace> traces = new ConcurrentHashMap<>();
    private final List<String> pushedIds = Collections.synchronizedList(new ArrayList<>());
    private final List<String> endedIds = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final List<Violation> violations = Collections.synchronizedList(new ArrayList<>());

    private Trace trace(String id) {
        return traces.computeIfAbsent(id, Trace::new);
    }

    void pushed(String id, String topic, long delayMs) {
        Trace trace = trace(id);
        synchronized (trace) {
            trace.topic = topic;
            trace.delayMs = delayMs;
        }
        pushedIds.add(id);
    }

    void reserved(String id, long sentAt) {
        Trace trace = trace(id);
        synchronized (trace) {
            trace.reservedAt.add(sentAt);
        }
    }

    void finished(String id, long answeredAt) {
        Trace trace = trace(id);
        boolean first;
        synchronized (trace) {
            first = trace.endedAt() == NEVER;
            trace.finishedAt = Math.min(trace.finishedAt, answeredAt);
        }
        if (first) {
            endedIds.add(id);
        }
    }

    void cancelled(String id, long answeredAt) {
        Trace trace = trace(id);
        boolean first;
        synchronized (trace) {
            first = trace.endedAt() == NEVER;
            trace.cancelledAt = Math.min(trace.cancelledAt, answeredAt);
        }
        if (first) {
            endedIds.add(id);
        }
    }

    void reAddedByRestoreJob(String id, long answeredAt) {
        Trace trace = trace(id);
        synchronized (trace) {
            trace.reAddedByRestoreJobAt = Math.min(trace.reAddedByRestoreJobAt, answeredAt);
        }
    }

    void uncertain(String id) {
        Trace trace = trace(id);
        synchronized (trace) {
            trace.uncertain = true;
        }
    }

    /** A job pushed with 200: one of the last {@code recent} half the time, else any. Null before the first. */
    String pickPushed(Random random, int recent) {
        return pick(pushedIds, random, recent);
    }

    /** A job whose end was answered: one of the last {@code recent} half the time, else any. Null before the first. */
    String pickEnded(Random random, int recent) {
        return pick(endedIds, random, recent);
    }

    private static String pick(List<String> ids, Random random, int recent) {
        synchronized (ids) {
            int size = ids.size();
            if (size == 0) {
                return null;
            }
            int from = random.nextBoolean() ? Math.max(0, size - recent) : 0;
            return ids.get(from + random.nextInt(size - from));
        }
    }

    long endedAt(String id) {
        Trace trace = traces.get(id);
        return trace == null ? NEVER : trace.endedAt();
    }

    Collection<Trace> pushedTraces() {
        return traces.values().stream().filter(Trace::pushed).toList();
    }

    void count(String outcome) {
        counts.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
    }

    long count(String outcome, long n) {
        return counts.computeIfAbsent(outcome, k -> new AtomicLong()).addAndGet(n);
    }

    void violation(Kind kind, String jobId, String detail) {
        violations.add(new Violation(kind, jobId, detail));
    }

    /** Every violation: those recorded during the load and those the recorded answers prove. */
    List<Violation> violations() {
        List<Violation> all;
        synchronized (violations) {
            all = new ArrayList<>(violations);
        }
        traces.values().forEach(trace -> all.addAll(trace.judgeAnswers()));
        return all;
    }

    Map<String, Long> counts() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((outcome, n) -> copy.put(outcome, n.get()));
        return copy;
    }

    String progress() {
        return pushedIds.size() + " pushed, " + endedIds.size() + " ended, " + violations.size() + " violations so far";
    }

    /** How many violations of each kind, in the order of {@link Kind}. */
    static Map<Kind, Long> countByKind(List<Violation> violations) {
        return violations.stream()
                .collect(
                        Collectors.groupingBy(Violation::kind, () -> new EnumMap<>(Kind.class), Collectors.counting()));
    }

    /** Violations per kind (at most one per kind and job) with a few examples each, described by {@code describe}. */
    static String report(List<Violation> violations, Function<String, String> describe) {
        Map<Kind, List<Violation>> byKind = violations.stream()
                .collect(Collectors.groupingBy(Violation::kind, () -> new EnumMap<>(Kind.class), Collectors.toList()));
        StringBuilder text = new StringBuilder(violations.size() + " violations");
        byKind.forEach((kind, list) -> {
            text.append("\n  ").append(kind).append(": ").append(list.size());
            list.stream()
                    .limit(EXAMPLES_PER_KIND)
                    .forEach(v -> text.append("\n    ")
                            .append(v)
                            .append(v.jobId().equals(NO_JOB) ? "" : "; " + describe.apply(v.jobId())));
        });
        return text.toString();
    }

    static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
