package io.mykit.delay.core.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.metrics.QueueMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The engine's reports as Micrometer meters. Topic tags come only from the allow-list (every other topic is
 * {@value #OTHER}) and job ids are never tags, so the number of series stays bounded whatever clients push.
 */
public final class DelayMetrics implements QueueMetrics {
    /** Topic tag of every topic outside mykit.delay.metrics.topics. */
    public static final String OTHER = "other";

    private final MeterRegistry registry;
    private final Set<String> topics;
    private final Clock clock;
    /** Meter name + first tag value -> topic tag -> counter: looked up per job, so no key is built per call. */
    private final Map<String, Map<String, Map<String, Counter>>> counters = new ConcurrentHashMap<>();

    private final Map<String, Map<String, Timer>> lateness = new ConcurrentHashMap<>();
    private final Map<String, Timer> journalCommits = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> journalBatches = new ConcurrentHashMap<>();
    private final Map<JobStatus, Counter> endsKept = new ConcurrentHashMap<>();
    private final Timer pushOk;
    private final Timer pushFailed;
    /** Topic -> target name; set once the targets exist (they are built after the engine's writers). */
    private volatile Function<String, String> routeOf = topic -> "unknown";

    public DelayMetrics(MeterRegistry registry, Collection<String> topics, Clock clock) {
        this.registry = registry;
        this.topics = Set.copyOf(topics);
        this.clock = clock;
        this.pushOk = pushTimer("ok");
        this.pushFailed = pushTimer("failed");
    }

    /** Where jobs whose reporter did not name a target went: their topic's route. */
    public void routeOf(Function<String, String> routeOf) {
        this.routeOf = routeOf;
    }

    /** The topic tag of {@code topic}. */
    public String topicTag(String topic) {
        return topics.contains(topic) ? topic : OTHER;
    }

    @Override
    public void pushed(List<Job> jobs, long nanos, boolean failed) {
        (failed ? pushFailed : pushOk).record(nanos, TimeUnit.NANOSECONDS);
        String outcome = failed ? "failed" : "ok";
        for (Job job : jobs) {
            counter(
                            "mykit.delay.pushes",
                            "jobs pushed (ok: durable, failed: answered with an error)",
                            "outcome",
                            outcome,
                            topicTag(job.getTopic()))
                    .increment();
        }
    }

    @Override
    public void journalBatch(String writer, int rows, long nanos) {
        journalBatches
                .computeIfAbsent(
                        writer,
                        w -> DistributionSummary.builder("mykit.delay.journal.batch.size")
                                .description("rows per journal commit")
                                .tag("writer", w)
                                .register(registry))
                .record(rows);
        journalCommits
                .computeIfAbsent(
                        writer,
                        w -> Timer.builder("mykit.delay.journal.commit")
                                .description("time of one journal batch write and commit")
                                .tag("writer", w)
                                .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void handedOver(String target, List<Job> jobs) {
        long now = clock.millis();
        for (Job job : jobs) {
            counter(
                            "mykit.delay.handovers",
                            "due jobs handed to a delivery target",
                            "target",
                            target,
                            topicTag(job.getTopic()))
                    .increment();
            late("handed_over", target, now - job.handOverDue());
        }
    }

    @Override
    public void delivered(String target, Job job) {
        String name = targetOf(target, job);
        counter(
                        "mykit.delay.deliveries",
                        "jobs the target confirmed (broker ack, log line, ready list)",
                        "target",
                        name,
                        topicTag(job.getTopic()))
                .increment();
        late("delivered", name, clock.millis() - job.handOverDue());
    }

    @Override
    public void failed(String target, Job job) {
        counter(
                        "mykit.delay.delivery.failures",
                        "failed hand-overs (each is retried or buried)",
                        "target",
                        targetOf(target, job),
                        topicTag(job.getTopic()))
                .increment();
    }

    @Override
    public void retried(String target, Job job) {
        counter(
                        "mykit.delay.retries",
                        "jobs put back with a backoff after a failed hand-over",
                        "target",
                        targetOf(target, job),
                        topicTag(job.getTopic()))
                .increment();
    }

    @Override
    public void dead(String target, Job job) {
        counter(
                        "mykit.delay.dead.letters",
                        "jobs buried after their tries or ttl ran out",
                        "target",
                        targetOf(target, job),
                        topicTag(job.getTopic()))
                .increment();
    }

    @Override
    public void endsKept(JobStatus status, int jobs) {
        endsKept.computeIfAbsent(
                        status,
                        s -> Counter.builder("mykit.delay.journal.ended.kept")
                                .description("late ends the journal left out, the job having ended "
                                        + "already (its first end stays)")
                                .tag("status", s.name())
                                .register(registry))
                .increment(jobs);
    }

    private String targetOf(String target, Job job) {
        return target != null ? target : routeOf.apply(job.getTopic());
    }

    private Counter counter(String name, String description, String key, String value, String topic) {
        return counters.computeIfAbsent(name, n -> new ConcurrentHashMap<>())
                .computeIfAbsent(value, v -> new ConcurrentHashMap<>())
                .computeIfAbsent(
                        topic,
                        t -> Counter.builder(name)
                                .description(description)
                                .tag(key, value)
                                .tag("topic", t)
                                .register(registry));
    }

    private void late(String stage, String target, long millis) {
        lateness.computeIfAbsent(stage, s -> new ConcurrentHashMap<>())
                .computeIfAbsent(
                        target,
                        t -> Timer.builder("mykit.delay.lateness")
                                .description("due time to hand-over (stage handed_over) or to the "
                                        + "target's confirmation (delivered)")
                                .tag("stage", stage)
                                .tag("target", t)
                                .publishPercentileHistogram()
                                .minimumExpectedValue(Duration.ofMillis(1))
                                .maximumExpectedValue(Duration.ofHours(1))
                                .register(registry))
                // a job handed over before its due time (clock skew between nodes) counts as on time
                .record(Math.max(0, millis), TimeUnit.MILLISECONDS);
    }

    private Timer pushTimer(String outcome) {
        return Timer.builder("mykit.delay.push.latency")
                .description("a push call from its arrival to durable (journal committed, Redis written)")
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }
}
