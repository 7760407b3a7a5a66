package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.error.TopicNotPulledException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.common.util.JobIdGenerator;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.RouteLookup;
import io.mykit.delay.queue.dispatch.pull.PendingPoll;
import io.mykit.delay.queue.dispatch.pull.PollAnswer;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.dispatch.pull.Stream;
import io.mykit.delay.queue.dispatch.pull.StreamOutlet;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.StoredJob;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The gateway's verbs: every push, cancel, look-up, pull and finish goes through here. Pushes, look-ups and pull
 * reservations are done here; ending a job (cancel, finish) and rescheduling it are protocols across Redis and the
 * journal of their own ({@link Cancellation}, {@link Finishing}, {@link Rescheduling}), which this class hands on to.
 */
public class DelayQueueService {
    /** Most jobs one bizKey look-up returns: each costs a Redis look-up besides the journal query. */
    public static final int MAX_BIZ_KEY_PAGE = 100;
    /**
     * The start-up warm-up's own topic: the warm-up takes and finishes every job it finds there, so it takes pushes
     * only while a warm-up runs (before the port opens); a user's job there would be finished by the next start.
     */
    public static final String WARMUP_TOPIC = "mykit-delay-warmup";

    private final JobValidator validator;
    private final Duration pushTimeout;
    private final JobIdGenerator ids;
    private final PushPipeline pushes;
    private final DelayStore store;
    private final Journal journal;
    private final StateChangeWriter states;
    private final PullTarget pull;
    private final DeliveryOutcomes outcomes;
    private final BucketWaker wakeBucket;
    private final Clock clock;
    private final Cancellation cancellation;
    private final Finishing finishing;
    private final Rescheduling rescheduling;
    /** The target each topic's due jobs go to ({@link PullTarget} for pullers). */
    private final RouteLookup routes;

    private volatile boolean warmingUp;

    /**
     * {@code pushTimeout}: how long a push waits for its group commit before answering 503; {@code routes}: the target
     * a topic's due jobs go to, so that a pull of a topic no puller ever receives is refused.
     */
    public DelayQueueService(
            JobValidator validator,
            Duration pushTimeout,
            JobIdGenerator ids,
            PushPipeline pushes,
            DelayStore store,
            Journal journal,
            StateChangeWriter states,
            PullTarget pull,
            DeliveryOutcomes outcomes,
            BucketWaker wakeBucket,
            Clock clock,
            RouteLookup routes) {
        this.validator = validator;
        this.routes = routes;
        this.pushTimeout = pushTimeout;
        this.ids = ids;
        this.pushes = pushes;
        this.store = store;
        this.journal = journal;
        this.states = states;
        this.pull = pull;
        this.outcomes = outcomes;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
        this.cancellation = new Cancellation(store, journal, states, clock);
        this.finishing = new Finishing(validator, store, journal, states, clock);
        this.rescheduling = new Rescheduling(validator, store, journal, wakeBucket, clock);
    }

    /** Journals and stores one job; returns its id once both are done. */
    /** The limits jobs and batches are checked against. */
    public JobLimits limits() {
        return validator.limits();
    }

    public String push(Job job) {
        return pushBatch(List.of(job)).get(0);
    }

    /** Validates all jobs first, then journals them in one transaction and stores them in one round trip. */
    public List<String> pushBatch(List<Job> jobs) {
        return pushReporting(jobs).ids();
    }

    /**
     * The ids of a push, in order, and those among them the journal held already: such a job is kept as it was (the
     * first push wins), and the client can tell from the answer.
     */
    public record PushResult(List<String> ids, Set<String> duplicates) {}

    /** {@link #pushBatch}, telling which client-chosen ids were journaled already. */
    public PushResult pushReporting(List<Job> jobs) {
        return pushReporting(jobs, topic -> "");
    }

    /**
     * {@link #pushReporting(List)} with each job stored behind the namespace {@code namespaceOf} gives its topic (""
     * for none, see {@link io.mykit.delay.common.util.JobIds}): its id, given or generated, and the answer's ids with
     * it.
     */
    public PushResult pushReporting(List<Job> jobs, Function<String, String> namespaceOf) {
        validator.requireBatch(jobs);
        long now = clock.millis();
        List<String> namespaces = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            try {
                Job job = jobs.get(i);
                String namespace = job == null ? "" : namespaceOf.apply(job.getTopic());
                validator.validate(job, now, namespace);
                namespaces.add(namespace);
                if (!warmingUp && WARMUP_TOPIC.equals(job.getTopic())) {
                    throw new InvalidJobException("topic", WARMUP_TOPIC + " is the gateway's own start-up topic");
                }
            } catch (InvalidJobException e) {
                throw jobs.size() == 1
                        ? e
                        : new InvalidJobException(
                                "[" + i + "]." + e.field(),
                                e.getMessage().substring(e.field().length() + 2));
            }
        }
        List<Job> accepted = new ArrayList<>(jobs.size());
        Set<String> clientIds = new HashSet<>();
        for (int i = 0; i < jobs.size(); i++) {
            accepted.add(normalized(jobs.get(i), namespaces.get(i), now, clientIds));
        }
        Set<String> duplicates = awaitDurable(pushes.submit(accepted, clientIds));
        return new PushResult(accepted.stream().map(Job::getId).toList(), duplicates);
    }

    /** Opens {@link #WARMUP_TOPIC} to pushes while the start-up warm-up runs, and closes it again. */
    public void warmingUp(boolean running) {
        warmingUp = running;
    }

    private Job normalized(Job in, String namespace, long now, Set<String> clientIds) {
        String id;
        if (in.getId() == null) {
            id = namespace + ids.next();
        } else {
            id = namespace + in.getId();
            clientIds.add(id);
        }
        Job job = new Job(
                id,
                in.getTopic(),
                in.getSubtopic(),
                in.getBizKey(),
                in.getDelay(),
                in.getPriority(),
                in.getTtl(),
                in.getTries() == 0 ? validator.limits().defaultTries() : in.getTries(),
                in.getBody(),
                in.getCreateTime() == 0 ? now : in.getCreateTime());
        job.setAttempts(0);
        return job;
    }

    /**
     * Waits up to the push timeout for the call's commit. A call no writer took by then is withdrawn: nothing of it is
     * stored, and the 503 says so; one whose commit began may still land, and its 503 says that instead.
     */
    private Set<String> awaitDurable(PushPipeline.Pending call) {
        try {
            return outcome(call, pushTimeout.toMillis());
        } catch (TimeoutException e) {
            if (pushes.withdraw(call)) {
                String outcome = "push not taken within " + pushTimeout + ": nothing was stored";
                throw new StoreUnavailableException("journal", outcome, outcome, e);
            }
        }
        try {
            // taken at the last moment: its commit may have ended meanwhile
            return outcome(call, 0);
        } catch (TimeoutException e) {
            String outcome = "push not confirmed within " + pushTimeout + ": it may still be stored (a push repeated"
                    + " with the same id is stored at most once)";
            throw new StoreUnavailableException("journal", outcome, outcome, e);
        }
    }

    private Set<String> outcome(PushPipeline.Pending call, long waitMs) throws TimeoutException {
        try {
            return call.done().get(waitMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pushes.withdraw(call);
            throw new StoreUnavailableException("gateway", "interrupted", e);
        }
    }

    /** See {@link Cancellation#cancel}. */
    public void delete(String jobId) {
        cancellation.cancel(jobId);
    }

    /** See {@link Cancellation#cancelAllPending}. */
    public CancelAllReport cancelAllPending() {
        return cancellation.cancelAllPending();
    }

    /** See {@link Cancellation#cancelByBizKey}. */
    public CancelReport cancelByBizKey(String topic, String bizKey, String afterId, int limit) {
        return cancellation.cancelByBizKey(topic, bizKey, afterId, limit);
    }

    /** See {@link Rescheduling#reschedule}. */
    public Job reschedule(String jobId, Long delayMs, String body) {
        return rescheduling.reschedule(jobId, delayMs, body);
    }

    /** See {@link Finishing#finish}. */
    public void finish(String jobId) {
        finishing.finish(jobId);
    }

    /** See {@link Finishing#finishAll}. */
    public FinishReport finishAll(List<String> jobIds) {
        return finishing.finishAll(jobIds);
    }

    /**
     * The topic of a job, from Redis while it holds the job, else from the journal; empty for an unknown id. Ids are
     * never reused for another job, so a job's topic never changes.
     */
    public Optional<String> topicOf(String jobId) {
        Optional<StoredJob> stored = store.peek(jobId);
        if (stored.isPresent()) {
            return Optional.of(stored.get().job().getTopic());
        }
        return journal.find(jobId).map(entry -> entry.job().getTopic());
    }

    /** Throws what {@link #finishAll} throws for a list of ids it refuses whole. */
    public void requireJobIds(List<String> jobIds) {
        validator.requireJobIds(jobIds);
    }

    /** The topics of the known jobs among {@code jobIds}, by id, in one journal query. */
    public Map<String, String> topicsOf(Collection<String> jobIds) {
        Map<String, String> topics = new HashMap<>();
        journal.findAll(jobIds)
                .forEach((id, entry) -> topics.put(id, entry.job().getTopic()));
        return topics;
    }

    /** The job with its journal status and current place in Redis. */
    public JobView lookup(String jobId) {
        requireId(jobId);
        JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
        return view(entry, store.peek(jobId).orElse(null));
    }

    /**
     * A journaled job as it is now. Live, Redis's counts are its tries, since they decide when it dies; the journal
     * gets them once, at its burial, so no reservation or send costs a journal write for them.
     */
    private static JobView view(JournalEntry entry, StoredJob stored) {
        if (stored == null) {
            return new JobView(entry.job(), entry.status(), entry.updateTime(), null);
        }
        Job job = entry.job().copy(entry.job().getId(), stored.job().getAttempts() + stored.reservations());
        long due = stored.stage() == StoredJob.Stage.DELAYED ? stored.score() : job.dueTime();
        return new JobView(job, entry.status(), entry.updateTime(), stored.stage(), due);
    }

    /**
     * One page of the jobs pushed with {@code bizKey} (in {@code topic} when not null), by id after {@code afterId},
     * each with its journal status and place in Redis: a page costs one journal query and one Redis look-up per job.
     */
    public List<JobView> findByBizKey(String bizKey, String topic, String afterId, int limit) {
        JobValidator.requireBizKey(bizKey);
        if (topic != null) {
            JobValidator.requireTopic(topic);
        }
        JobValidator.requirePage(afterId, limit, MAX_BIZ_KEY_PAGE);
        return views(journal.findByBizKey(bizKey, topic, false, afterId == null ? "" : afterId, limit));
    }

    /**
     * {@link #findByBizKey} in the topics some of {@code topicPatterns} match (a tenant's): the journal query reads
     * only those topics' jobs, not every job of the bizKey.
     */
    public List<JobView> findByBizKeyInTopics(String bizKey, List<String> topicPatterns, String afterId, int limit) {
        JobValidator.requireBizKey(bizKey);
        JobValidator.requirePage(afterId, limit, MAX_BIZ_KEY_PAGE);
        return views(journal.findByBizKeyInTopics(bizKey, topicPatterns, afterId == null ? "" : afterId, limit));
    }

    private List<JobView> views(List<JournalEntry> entries) {
        return entries.stream()
                .map(entry -> view(entry, store.peek(entry.job().getId()).orElse(null)))
                .toList();
    }

    /** Reserves one due job of a pull topic for {@code ttrMs}, long-polling up to {@code timeoutMs}. */
    public Optional<Job> reserve(String topic, Long ttrMs, Long timeoutMs) {
        return reserve(topic, 1, ttrMs, timeoutMs).stream().findFirst();
    }

    /** Reserves up to {@code count} due jobs of a topic; empty when none came within the timeout. */
    public List<Job> reserve(String topic, int count, Long ttrMs, Long timeoutMs) {
        JobValidator.PullRequest args = validator.checkPull(topic, count, ttrMs, timeoutMs);
        requirePulled(topic);
        try {
            return pull.reserve(topic, count, args.ttr(), args.timeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /**
     * {@link #reserve(String, int, Long, Long)} without holding the caller's thread while it waits: {@code answer} is
     * called once, with the jobs or with none at the timeout. Bad input throws here, before anything waits.
     */
    public PendingPoll reserveAsync(String topic, int count, Long ttrMs, Long timeoutMs, PollAnswer answer) {
        JobValidator.PullRequest args = validator.checkPull(topic, count, ttrMs, timeoutMs);
        requirePulled(topic);
        return pull.reserveAsync(topic, count, args.ttr(), args.timeout(), answer);
    }

    /**
     * A puller gives a reserved job back, due again in {@code delayMs} (0 = now): journaled ConsumerFailRestore, its
     * reservation counted as a try. A job out of tries or ttl is buried as dead instead; answers whether it was.
     */
    public boolean release(String jobId, Long delayMs) {
        requireId(jobId);
        long delay = validator.releaseDelay(delayMs);
        long now = clock.millis();
        DelayStore.Released released =
                store.release(jobId, now + delay, now, validator.limits().defaultTries());
        switch (released.outcome()) {
            case RELEASED -> {
                states.submit(StateChange.of(jobId, JobStatus.ConsumerFailRestore, now));
                wakeBucket.wake(store.bucketOf(jobId), now + delay);
                return false;
            }
            case SPENT -> {
                outcomes.bury(store.bucketOf(jobId), List.of(released.job()));
                return true;
            }
            default -> throw notReserved(jobId);
        }
    }

    /**
     * Checks a stream's topics (each as a pull's) and ttr before it opens; answers the ttr in ms (null: the default).
     */
    public long checkStream(List<String> topics, Long ttrMs) {
        topics.forEach(JobValidator::requireTopic);
        topics.forEach(this::requirePulled);
        return validator.ttr(ttrMs);
    }

    /**
     * Opens a stream over pull {@code topics} ({@link #checkStream}ed): their due jobs are reserved for {@code ttrMs}
     * as they come, at most {@code credit} held at once, and written to {@code outlet}.
     */
    public Stream openStream(List<String> topics, int credit, long ttrMs, StreamOutlet outlet) {
        return pull.openStream(topics, credit, ttrMs, outlet);
    }

    /** A touch's reservation time in ms: {@code ttrMs}, or the default when null; 400 when out of range. */
    public long touchTtr(Long ttrMs) {
        return validator.ttr(ttrMs);
    }

    /**
     * A consumer buries a job it holds: journaled Dead at once, then dropped from Redis, as a release out of tries
     * does. Refused (404/409) when the job is not reserved any more.
     */
    public void bury(Job held) {
        String jobId = held.getId();
        if (!store.touch(jobId, validator.ttr(null))) {
            throw notReserved(jobId);
        }
        // the held copy counts the reservations before its own, which used a try too
        outcomes.bury(store.bucketOf(jobId), List.of(held.copy(held.getId(), held.getAttempts() + 1)));
    }

    /** Extends a puller's reservation of a job to {@code ttrMs} from now. */
    public void touch(String jobId, Long ttrMs) {
        requireId(jobId);
        long ttr = validator.ttr(ttrMs);
        if (!store.touch(jobId, ttr)) {
            throw notReserved(jobId);
        }
    }

    /** 404 for an unknown job, else 409 naming its journal state. */
    private RuntimeException notReserved(String jobId) {
        JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
        return new JobStateConflictException(jobId, "job " + jobId + " is not reserved (" + entry.status() + ")");
    }

    /** A topic routed to a broker (or the log) never has a job for a puller: 409 rather than an empty answer. */
    private void requirePulled(String topic) {
        String target = routes.route(topic).name();
        if (!PullTarget.NAME.equals(target)) {
            throw new TopicNotPulledException(topic, target);
        }
    }

    private static void requireId(String jobId) {
        JobValidator.requireId("jobId", jobId);
    }
}
