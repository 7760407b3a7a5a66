package io.mykit.delay.queue.stats;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.tenant.TopicPattern;
import io.mykit.delay.queue.service.JobValidator;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What the operator sees: per-topic counts from the store's counters, dead letters from the journal's indexes, due
 * times from the due slices' index, and this node's recent lateness. Nothing here reads every job.
 */
public class StatsService {
    /** Lateness percentiles cover this much recent time. */
    static final long LATENESS_WINDOW_MS = 300_000;

    static final int LATENESS_RECENT = 120;
    public static final int MAX_MINUTES = 1440;
    /** Topic lines one answer of GET /stats lists at most; the totals still cover every topic. */
    public static final int MAX_TOPIC_LINES = 1_000;
    /** The longest {@code prefix} or {@code after} a page of topic lines takes: a topic's own limit. */
    static final int MAX_TOPIC_CHARS = 128;

    private final StoreCounters counters;
    private final DeadLetterCounts dead;
    private final LatenessRecorder lateness;
    private final Clock clock;

    public StatsService(StoreCounters counters, DeadLetterCounts dead, LatenessRecorder lateness, Clock clock) {
        this.counters = counters;
        this.dead = dead;
        this.lateness = lateness;
        this.clock = clock;
    }

    /** One topic's line in the overview. */
    public record TopicLine(String topic, long pending, long ready, long inFlight, long dead) {}

    /**
     * Every topic Redis or the dead letters know, the totals, the head of the due times and recent lateness;
     * {@code countsComplete} false while Redis lacks the counters' mark and its recount is not due yet. In a view of
     * some topics only, {@code overdue} and {@code lateness} (kept for all topics together) are null. {@code topics}
     * lists {@code topicCount} lines, or some of them by name when {@code topicsCut} ({@link #page});
     * {@code moreTopics} of them come after the listed ones.
     */
    public record Overview(
            long at,
            long pending,
            long ready,
            long inFlight,
            long dead,
            boolean deadExact,
            Long overdue,
            Long nextDueTime,
            Long oldestOverdueTime,
            Long oldestOverdueMs,
            List<TopicLine> topics,
            LatenessRecorder.Summary lateness,
            boolean countsComplete,
            int topicCount,
            boolean topicsCut,
            int moreTopics) {

        /**
         * One page of this overview's topic lines: those whose name starts with {@code prefix} (every one when null),
         * by name, the first after {@code after} (from the first when null), at most {@code limit}. {@code topicCount}
         * then counts the lines of that prefix; the totals, due times and lateness stay those of every topic.
         */
        public Overview page(String prefix, String after, int limit) {
            if (limit < 1 || limit > MAX_TOPIC_LINES) {
                throw new InvalidJobException("limit", "must be 1.." + MAX_TOPIC_LINES + ", was " + limit);
            }
            requireShort("prefix", prefix);
            requireShort("after", after);
            List<TopicLine> matching = prefix == null || prefix.isEmpty()
                    ? topics
                    : topics.stream()
                            .filter(line -> line.topic().startsWith(prefix))
                            .toList();
            int from = 0;
            if (after != null) {
                // the lines are sorted by name: the page starts at the first name beyond the cursor
                while (from < matching.size() && matching.get(from).topic().compareTo(after) <= 0) {
                    from++;
                }
            }
            int to = Math.min(matching.size(), from + limit);
            if (matching == topics && from == 0 && to == topics.size()) {
                return this;
            }
            return new Overview(
                    at,
                    pending,
                    ready,
                    inFlight,
                    dead,
                    deadExact,
                    overdue,
                    nextDueTime,
                    oldestOverdueTime,
                    oldestOverdueMs,
                    List.copyOf(matching.subList(from, to)),
                    lateness,
                    countsComplete,
                    matching.size(),
                    from > 0 || to < matching.size(),
                    matching.size() - to);
        }

        private static void requireShort(String name, String value) {
            if (value != null && value.length() > MAX_TOPIC_CHARS) {
                throw new InvalidJobException(name, "must be at most " + MAX_TOPIC_CHARS + " characters");
            }
        }
    }

    /**
     * One topic; due times sampled (see {@link StoreCounters#topicHead}), {@code *Known} false when beyond the sample.
     */
    public record TopicStats(
            long at,
            String topic,
            long pending,
            long ready,
            long inFlight,
            long dead,
            boolean deadExact,
            Long nextDueTime,
            boolean nextDueKnown,
            Long oldestOverdueTime,
            Long oldestOverdueMs,
            boolean oldestOverdueKnown) {}

    /** Waiting jobs due per minute over the next {@code minutes}, starting at {@code from}. */
    public record DueTimes(long from, int minutes, long overdue, long[] perMinute, boolean estimated) {}

    public Overview overview() {
        long now = clock.millis();
        StoreCounters.Snapshot snapshot = counters.snapshot(now);
        DeadLetterCounts.Counted deadCounts = dead.byTopic();
        List<TopicLine> lines = new ArrayList<>();
        StageCounts total = StageCounts.NONE;
        long deadTotal = 0;
        TreeSet<String> topics = new TreeSet<>(snapshot.topics().keySet());
        topics.addAll(deadCounts.byTopic().keySet());
        for (String topic : topics) {
            StageCounts c = snapshot.topics().getOrDefault(topic, StageCounts.NONE);
            long d = deadCounts.byTopic().getOrDefault(topic, 0L);
            if (c.pending() == 0 && c.ready() == 0 && c.inFlight() == 0 && d == 0) {
                continue;
            }
            lines.add(new TopicLine(topic, c.pending(), c.ready(), c.inFlight(), d));
            total = total.plus(c);
            deadTotal += d;
        }
        Long oldest = snapshot.oldestOverdue();
        return new Overview(
                now,
                total.pending(),
                total.ready(),
                total.inFlight(),
                deadTotal,
                deadCounts.exact(),
                snapshot.overdue(),
                snapshot.nextDue(),
                oldest,
                oldest == null ? null : now - oldest,
                lines,
                lateness.summary(LATENESS_WINDOW_MS, LATENESS_RECENT),
                snapshot.complete(),
                lines.size(),
                false,
                0);
    }

    /**
     * The overview of the topics some of {@code patterns} match only: their lines and totals, and the earliest of their
     * sampled due times, read for all of them in one pass; nothing of other topics shows, not even in a total.
     */
    public Overview overview(List<TopicPattern> patterns) {
        Overview all = overview();
        long now = all.at();
        Predicate<String> visible = topic -> patterns.stream().anyMatch(p -> p.matches(topic));
        List<TopicLine> lines =
                all.topics().stream().filter(line -> visible.test(line.topic())).toList();
        long pending = 0;
        long ready = 0;
        long inFlight = 0;
        long deadTotal = 0;
        Long nextDue = null;
        Long oldest = null;
        for (TopicLine line : lines) {
            pending += line.pending();
            ready += line.ready();
            inFlight += line.inFlight();
            deadTotal += line.dead();
        }
        if (!lines.isEmpty()) {
            StoreCounters.TopicHead head =
                    counters.head(patterns.stream().map(TopicPattern::pattern).toList(), now);
            nextDue = head.nextDue();
            oldest = head.oldestOverdue();
        }
        return new Overview(
                now,
                pending,
                ready,
                inFlight,
                deadTotal,
                all.deadExact(),
                null,
                nextDue,
                oldest,
                oldest == null ? null : now - oldest,
                lines,
                null,
                all.countsComplete(),
                lines.size(),
                false,
                0);
    }

    /**
     * What {@link #topic} answers for a topic no job ever had, without reading anything of {@code topic}: the sample of
     * a name no topic can have (':' is not allowed in one) says whether the sample window was full, as it would.
     */
    public TopicStats unusedTopic(String topic) {
        JobValidator.requireTopic(topic);
        long now = clock.millis();
        StoreCounters.TopicHead head = counters.topicHead(":unused", now);
        return new TopicStats(
                now,
                topic,
                0,
                0,
                0,
                0,
                true,
                head.nextDue(),
                head.nextDueKnown(),
                head.oldestOverdue(),
                head.oldestOverdue() == null ? null : now - head.oldestOverdue(),
                head.oldestOverdueKnown());
    }

    public TopicStats topic(String topic) {
        JobValidator.requireTopic(topic);
        long now = clock.millis();
        StageCounts c = counters.snapshot(now).topics().getOrDefault(topic, StageCounts.NONE);
        StoreCounters.TopicHead head = counters.topicHead(topic, now);
        long d = dead.of(topic);
        Long oldest = head.oldestOverdue();
        return new TopicStats(
                now,
                topic,
                c.pending(),
                c.ready(),
                c.inFlight(),
                Math.min(d, DeadLetterCounts.CAP),
                d <= DeadLetterCounts.CAP,
                head.nextDue(),
                head.nextDueKnown(),
                oldest,
                oldest == null ? null : now - oldest,
                head.oldestOverdueKnown());
    }

    public DueTimes dueTimes(int minutes) {
        if (minutes < 1 || minutes > MAX_MINUTES) {
            throw new InvalidJobException("minutes", "must be 1.." + MAX_MINUTES + ", was " + minutes);
        }
        long now = clock.millis();
        StoreCounters.DueMinutes due = counters.dueMinutes(now, minutes);
        return new DueTimes(now, minutes, due.overdue(), due.perMinute(), due.estimated());
    }

    /** Counts every bucket afresh; returns the jobs counted. */
    public long recount() {
        return counters.recountAll();
    }
}
