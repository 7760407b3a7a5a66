package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.common.util.JobIdGenerator;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.PullTarget;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.StoredJob;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/** The gateway's verbs: every push, cancel, look-up, pull and finish goes through here. */
public class DelayQueueService {
    /** How long a finish or cancel of a job Redis lacks waits for queued journal changes before judging by the journal. */
    private static final long ABSENT_FLUSH_MS = 2_000;
    /** Most jobs one bizKey look-up returns: each costs a Redis look-up besides the journal query. */
    public static final int MAX_BIZ_KEY_PAGE = 100;
    /** Most jobs one bizKey cancel ends: its answer lists each of them. */
    public static final int MAX_CANCEL_PAGE = 1_000;
    private final DelayProperties properties;
    private final JobValidator validator;
    private final JobIdGenerator ids;
    private final PushPipeline pushes;
    private final DelayStore store;
    private final Journal journal;
    private final StateChangeWriter states;
    private final PullTarget pull;
    private final DeliveryOutcomes outcomes;
    private final BiConsumer<Integer, Long> wakeBucket;
    private final Clock clock;

    /**
     * The start-up warm-up's own topic: the warm-up takes and finishes every job it finds there, so it takes pushes only
     * while a warm-up runs (before the port opens); a user's job there would be finished by the next start.
     */
    public static final String WARMUP_TOPIC = "mykit-delay-warmup";

    private volatile boolean warmingUp;
    private static final int CANCEL_ALL_PAGE = 1_000;
    /** Why a finish of a job no puller reserved, held by a broker sender, is refused. */
    private static final String HANDED_TO_TARGET = "handed to its delivery target, not reserved by a puller: the target"
            + " delivers it, a finish cannot end it";
    /** Why a finish of a due job not yet handed over (its target may be a broker) is refused. */
    private static final String NOT_YET_HANDED_OVER = "due but not yet handed over, not reserved by a puller; delete it"
            + " instead";
    private static final int CANCEL_ALL_REFUSALS_LISTED = 1_000;

    public DelayQueueService(DelayProperties properties, JobIdGenerator ids, PushPipeline pushes, DelayStore store,
                             Journal journal, StateChangeWriter states, PullTarget pull, DeliveryOutcomes outcomes,
                             BiConsumer<Integer, Long> wakeBucket, Clock clock) {
        this.properties = properties;
        this.validator = new JobValidator(properties.getLimits());
        this.ids = ids;
        this.pushes = pushes;
        this.store = store;
        this.journal = journal;
        this.states = states;
        this.pull = pull;
        this.outcomes = outcomes;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
    }

    /** Journals and stores one job; returns its id once both are done. */
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
    public record PushResult(List<String> ids, Set<String> duplicates) {
    }

    /** {@link #pushBatch}, telling which client-chosen ids were journaled already. */
    public PushResult pushReporting(List<Job> jobs) {
        if (jobs == null || jobs.isEmpty()) {
            throw new InvalidJobException("jobs", "must be a non-empty array");
        }
        int max = properties.getLimits().getMaxBatchSize();
        if (jobs.size() > max) {
            throw new InvalidJobException("jobs", "at most " + max + " jobs per batch, got " + jobs.size());
        }
        long now = clock.millis();
        for (int i = 0; i < jobs.size(); i++) {
            try {
                validator.validate(jobs.get(i), now);
                if (!warmingUp && WARMUP_TOPIC.equals(jobs.get(i).getTopic())) {
                    throw new InvalidJobException("topic", WARMUP_TOPIC + " is the gateway's own start-up topic");
                }
            } catch (InvalidJobException e) {
                throw jobs.size() == 1 ? e : new InvalidJobException("[" + i + "]." + e.field(),
                        e.getMessage().substring(e.field().length() + 2));
            }
        }
        List<Job> accepted = new ArrayList<>(jobs.size());
        Set<String> clientIds = new HashSet<>();
        for (Job job : jobs) {
            accepted.add(normalized(job, now, clientIds));
        }
        Set<String> duplicates = awaitDurable(pushes.submit(accepted, clientIds));
        return new PushResult(accepted.stream().map(Job::getId).toList(), duplicates);
    }

    /** Opens {@link #WARMUP_TOPIC} to pushes while the start-up warm-up runs, and closes it again. */
    public void warmingUp(boolean running) {
        warmingUp = running;
    }

    private Job normalized(Job in, long now, Set<String> clientIds) {
        String id = in.getId();
        if (id == null) {
            id = ids.next();
        } else {
            clientIds.add(id);
        }
        Job job = new Job(id, in.getTopic(), in.getSubtopic(), in.getBizKey(), in.getDelay(), in.getPriority(),
                in.getTtl(), in.getTries() == 0 ? properties.getLimits().getDefaultTries() : in.getTries(),
                in.getBody(), in.getCreateTime() == 0 ? now : in.getCreateTime());
        job.setAttempts(0);
        return job;
    }

    /**
     * Waits up to the push timeout for the call's commit. A call no writer took by then is withdrawn: nothing of it is
     * stored, and the 503 says so; one whose commit began may still land, and its 503 says that instead.
     */
    private Set<String> awaitDurable(PushPipeline.Pending call) {
        Duration timeout = properties.getJournal().getPushTimeout();
        try {
            return outcome(call, timeout.toMillis());
        } catch (TimeoutException e) {
            if (pushes.withdraw(call)) {
                String outcome = "push not taken within " + timeout + ": nothing was stored";
                throw new StoreUnavailableException("journal", outcome, outcome, e);
            }
        }
        try {
            // taken at the last moment: its commit may have ended meanwhile
            return outcome(call, 0);
        } catch (TimeoutException e) {
            String outcome = "push not confirmed within " + timeout + ": it may still be stored (a push repeated with the"
                    + " same id is stored at most once)";
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

    /**
     * Cancels a job so it is never delivered: only while it still waits (in its bucket or a pull topic's ready list).
     * A job already handed to its target or reserved by a puller is refused with 409: it may have been delivered.
     */
    public void delete(String jobId) {
        requireId(jobId);
        DelayStore.RemoveResult removed;
        try (StateChangeWriter.Ending ending = states.beginEnding()) {
            removed = store.delete(jobId);
            if (removed == DelayStore.RemoveResult.IN_FLIGHT) {
                throw new JobStateConflictException(jobId, "job " + jobId + " is already handed over (delivered or"
                        + " reserved): it can no longer be cancelled");
            }
            if (removed == DelayStore.RemoveResult.REMOVED
                    && journal.markDeleted(jobId, false, Thread.currentThread().getName(), clock.millis())) {
                return;
            }
        }
        if (removed != DelayStore.RemoveResult.REMOVED) {
            // a finish that took it from Redis may not have submitted its Finish yet: wait for that end and its write
            // (outside our own end, which the wait would count), or this Delete would be written under the Finish
            flushQueuedChanges();
            try (StateChangeWriter.Ending ending = states.beginEnding()) {
                // a WaitPut job Redis lacks may be added by its push any moment: cancelling it now could not stop that
                if (journal.markDeleted(jobId, true, Thread.currentThread().getName(), clock.millis())) {
                    // ended without leaving Redis here (Redis lost it): a restore running now must not bring it back
                    store.markEnded(jobId);
                    return;
                }
            }
        }
        JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
        if (removed == DelayStore.RemoveResult.REMOVED) {
            return;
        }
        if (entry.status() == JobStatus.WaitPut) {
            throw new JobStateConflictException(jobId, "job " + jobId + " is being stored; cancel it again in a moment");
        }
        throw new JobStateConflictException(jobId, "job " + jobId + " already ended: " + entry.status());
    }

    /**
     * Cancels every pending job the journal holds, one by one through {@link #delete} (so each is journaled Delete
     * and never delivered afterwards); jobs already handed over, or still being stored, are refused and reported.
     */
    public CancelAllReport cancelAllPending() {
        long[] cancelled = {0};
        Map<String, String> refused = new LinkedHashMap<>();
        cancelEach(after -> journal.findPendingAfter(after, CANCEL_ALL_PAGE), CANCEL_ALL_PAGE, id -> cancelled[0]++,
                (id, why) -> {
                    if (refused.size() < CANCEL_ALL_REFUSALS_LISTED) {
                        refused.put(id, why);
                    }
                });
        return new CancelAllReport(cancelled[0], refused);
    }

    /** Cancels each job of the pages {@code nextPage} gives (keyset by id), as {@link #delete} does, and reports. */
    private void cancelEach(java.util.function.Function<String, List<JournalEntry>> nextPage, int pageSize,
                            java.util.function.Consumer<String> cancelled,
                            java.util.function.BiConsumer<String, String> refused) {
        String after = "";
        List<JournalEntry> page;
        do {
            page = nextPage.apply(after);
            for (JournalEntry entry : page) {
                String id = entry.job().getId();
                try {
                    delete(id);
                    cancelled.accept(id);
                } catch (JobStateConflictException | JobNotFoundException e) {
                    refused.accept(id, e.getMessage());
                }
                after = id;
            }
        } while (page.size() == pageSize);
    }

    /** {@code refused}: the first refusals (at most 1,000), job id -> why. */
    public record CancelAllReport(long cancelled, Map<String, String> refused) {
    }

    /**
     * Replaces a pending job's delay (counted from now, as a new push of the id was in the original) and, when given,
     * its body, atomically in Redis and then in the journal. Only while it waits in its bucket: a job already due or
     * handed over is refused (409), so no delivery ever carries a half-replaced job. The journal goes second: a crash
     * in between leaves the old schedule there and no answer to the client, who retries.
     */
    public Job reschedule(String jobId, Long delayMs, String body) {
        requireId(jobId);
        if (delayMs == null) {
            throw new InvalidJobException("delay", "is required");
        }
        JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
        if (entry.status().isTerminal()) {
            throw new JobStateConflictException(jobId, "job " + jobId + " already ended: " + entry.status());
        }
        long now = clock.millis();
        Job old = entry.job();
        Job job = new Job(jobId, old.getTopic(), old.getSubtopic(), old.getBizKey(), delayMs, old.getPriority(),
                old.getTtl(), old.getTries(), body == null ? old.getBody() : body, now);
        job.setAttempts(old.getAttempts());
        validator.validate(job, now);
        switch (store.reschedule(job)) {
            case NOT_WAITING -> throw new JobStateConflictException(jobId, "job " + jobId + " is already due or handed"
                    + " over: it can no longer be rescheduled");
            case NOT_IN_REDIS -> throw new JobStateConflictException(jobId, "job " + jobId + " is not in Redis ("
                    + entry.status() + "): being stored, or waiting for a restore; try again in a moment");
            case RESCHEDULED -> { }
        }
        if (!journal.reschedule(job, Thread.currentThread().getName(), now)) {
            throw new JobStateConflictException(jobId, "job " + jobId + " ended while it was being rescheduled");
        }
        wakeBucket.accept(store.bucketOf(jobId), job.dueTime());
        return job;
    }

    /** The job with its journal status and current place in Redis. */
    public JobView lookup(String jobId) {
        requireId(jobId);
        JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
        StoredJob.Stage stage = store.peek(jobId).map(StoredJob::stage).orElse(null);
        return new JobView(entry.job(), entry.status(), entry.updateTime(), stage);
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
        if (afterId != null) {
            JobValidator.requireId("after", afterId);
        }
        if (limit < 1 || limit > MAX_BIZ_KEY_PAGE) {
            throw new InvalidJobException("limit", "must be 1.." + MAX_BIZ_KEY_PAGE + ", was " + limit);
        }
        return journal.findByBizKey(bizKey, topic, false, afterId == null ? "" : afterId, limit).stream()
                .map(entry -> new JobView(entry.job(), entry.status(), entry.updateTime(),
                        store.peek(entry.job().getId()).map(StoredJob::stage).orElse(null)))
                .toList();
    }

    /**
     * Cancels the jobs of {@code bizKey} in {@code topic} not yet ended, by id after {@code afterId}, at most
     * {@code limit} of them, each as {@link #delete} does (so none of them is delivered afterwards, whatever restore
     * follows); a job that can no longer be cancelled is reported, not fatal.
     */
    public CancelReport cancelByBizKey(String topic, String bizKey, String afterId, int limit) {
        JobValidator.requireTopic(topic);
        JobValidator.requireBizKey(bizKey);
        if (afterId != null) {
            JobValidator.requireId("after", afterId);
        }
        if (limit < 1 || limit > MAX_CANCEL_PAGE) {
            throw new InvalidJobException("limit", "must be 1.." + MAX_CANCEL_PAGE + ", was " + limit);
        }
        // one more than the page tells whether another page follows
        List<JournalEntry> page = journal.findByBizKey(bizKey, topic, true, afterId == null ? "" : afterId, limit + 1);
        List<String> cancelled = new ArrayList<>();
        Map<String, String> refused = new LinkedHashMap<>();
        String last = null;
        for (JournalEntry entry : page.subList(0, Math.min(limit, page.size()))) {
            last = entry.job().getId();
            try {
                delete(last);
                cancelled.add(last);
            } catch (JobStateConflictException | JobNotFoundException e) {
                refused.put(last, e.getMessage());
            }
        }
        boolean more = page.size() > limit;
        return new CancelReport(cancelled, refused, more, more ? last : null);
    }

    /**
     * What {@link #cancelByBizKey} did: ids now cancelled, and why each other pending job of the page was not;
     * {@code more}: pending jobs of the key may follow, from {@code next} on (pass it as {@code after}).
     */
    public record CancelReport(List<String> cancelled, Map<String, String> refused, boolean more, String next) {
    }

    /** Reserves one due job of a pull topic for {@code ttrMs}, long-polling up to {@code timeoutMs}. */
    public Optional<Job> reserve(String topic, Long ttrMs, Long timeoutMs) {
        return reserve(topic, 1, ttrMs, timeoutMs).stream().findFirst();
    }

    /** Reserves up to {@code count} due jobs of a topic; empty when none came within the timeout. */
    public List<Job> reserve(String topic, int count, Long ttrMs, Long timeoutMs) {
        PullArgs args = checkedPull(topic, count, ttrMs, timeoutMs);
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
    public PullTarget.PendingPoll reserveAsync(String topic, int count, Long ttrMs, Long timeoutMs,
                                               PullTarget.PollAnswer answer) {
        PullArgs args = checkedPull(topic, count, ttrMs, timeoutMs);
        return pull.reserveAsync(topic, count, args.ttr(), args.timeout(), answer);
    }

    private record PullArgs(long ttr, long timeout) {
    }

    /** Checks a pull's input in the order the fields were always checked: topic, ttr, timeout, count. */
    private PullArgs checkedPull(String topic, int count, Long ttrMs, Long timeoutMs) {
        JobValidator.requireTopic(topic);
        DelayProperties.Pull limits = properties.getPull();
        long ttr = checkedTtr(ttrMs);
        long timeout = timeoutMs == null ? 0 : timeoutMs;
        if (timeout < 0 || timeout > limits.getMaxTimeout().toMillis()) {
            throw new InvalidJobException("timeout", "must be 0.." + limits.getMaxTimeout().toMillis() + " ms");
        }
        int maxCount = properties.getLimits().getMaxBatchSize();
        if (count < 1 || count > maxCount) {
            throw new InvalidJobException("count", "must be 1.." + maxCount);
        }
        return new PullArgs(ttr, timeout);
    }

    /**
     * Acknowledges many pulled jobs in one Redis round trip. Each id is finished or gets the reason it was not, as
     * {@link #finish} would have refused it; a job already finished counts as finished.
     */
    public FinishReport finishAll(List<String> jobIds) {
        int maxCount = properties.getLimits().getMaxBatchSize();
        if (jobIds == null || jobIds.isEmpty() || jobIds.size() > maxCount) {
            throw new InvalidJobException("jobIds", "must hold 1.." + maxCount + " job ids");
        }
        for (int i = 0; i < jobIds.size(); i++) {
            JobValidator.requireId("jobIds[" + i + "]", jobIds.get(i));
        }
        List<String> ids = jobIds.stream().distinct().toList();
        long now = clock.millis();
        List<String> finished = new ArrayList<>(ids.size());
        Map<String, String> refused = new LinkedHashMap<>();
        List<String> absent = new ArrayList<>();
        try (StateChangeWriter.Ending ending = states.beginEnding()) {
            List<DelayStore.RemoveResult> results = store.finishAll(ids, now);
            List<StateChange> changes = new ArrayList<>(ids.size());
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                switch (results.get(i)) {
                    case REMOVED -> {
                        finished.add(id);
                        changes.add(StateChange.of(id, JobStatus.Finish, now));
                    }
                    case NOT_DUE -> refused.put(id, "not due yet; delete it instead");
                    case IN_FLIGHT -> refused.put(id, HANDED_TO_TARGET);
                    case NOT_HANDED_OVER -> refused.put(id, NOT_YET_HANDED_OVER);
                    case ABSENT -> absent.add(id);
                }
            }
            states.submitAll(changes);
        }
        // ids Redis no longer holds: one journal query tells finished ones from unknown or unreserved ones
        Map<String, JournalEntry> journaled = journalAfterEnds(absent);
        for (String id : absent) {
            JournalEntry entry = journaled.get(id);
            String refusal = entry == null ? "no such job" : finishAbsent(entry, now);
            if (refusal == null) {
                finished.add(id);
            } else {
                refused.put(id, refusal);
            }
        }
        return new FinishReport(finished, refused);
    }

    /** The journal entries of these jobs once every change submitted so far is written (empty input: no query). */
    private Map<String, JournalEntry> journalAfterEnds(List<String> jobIds) {
        if (jobIds.isEmpty()) {
            return Map.of();
        }
        flushQueuedChanges();
        return journal.findAll(jobIds);
    }

    /**
     * Waits (bounded) until every end under way on another thread (its Redis step taken, its change maybe not yet
     * submitted) is submitted, and the journal holds every change submitted so far: it is judged by its rows next.
     * Never call it inside an end of this thread's own.
     */
    private void flushQueuedChanges() {
        try {
            if (!states.flushEndings(ABSENT_FLUSH_MS)) {
                throw new StoreUnavailableException("journal", "queued state changes not written within "
                        + ABSENT_FLUSH_MS + " ms", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("gateway", "interrupted", e);
        }
    }

    /**
     * Finishes a job Redis no longer holds, judged by its journal entry; returns why not, or null when it is finished.
     * A due job the journal shows Ready was handed to a puller and then left Redis: most likely an earlier finish
     * of ours whose reply was lost (or Redis lost its data), so the puller's finish is taken and journaled.
     */
    private String finishAbsent(JournalEntry entry, long now) {
        String id = entry.job().getId();
        if (entry.status() == JobStatus.Finish) {
            return null;
        }
        if (entry.status() != JobStatus.Ready || entry.job().dueTime() > now) {
            return "not reserved (" + entry.status() + ")";
        }
        try (StateChangeWriter.Ending ending = states.beginEnding()) {
            store.markEnded(id);
            // answered before the Finish is written, like any finish: a restore must leave the job alone until then
            store.markFinished(id, now);
            states.submit(StateChange.of(id, JobStatus.Finish, now));
        }
        return null;
    }

    /** What {@link #finishAll} did: ids now finished, and the reason for each id it refused. */
    public record FinishReport(List<String> finished, Map<String, String> refused) {
    }

    /**
     * Acknowledges a pulled job: it is done and never delivered again. Finishing it again is not an error. A job a
     * puller never had is not the caller's to finish (409): one handed to a broker sender (the broker delivers it) or
     * one due and not yet handed over.
     */
    public void finish(String jobId) {
        requireId(jobId);
        long now = clock.millis();
        DelayStore.RemoveResult result;
        try (StateChangeWriter.Ending ending = states.beginEnding()) {
            result = store.finish(jobId, now);
            if (result == DelayStore.RemoveResult.REMOVED) {
                states.submit(StateChange.of(jobId, JobStatus.Finish, now));
                return;
            }
        }
        switch (result) {
            case NOT_DUE -> throw refusedFinish(jobId, "not due yet; delete it instead");
            case IN_FLIGHT -> throw refusedFinish(jobId, HANDED_TO_TARGET);
            case NOT_HANDED_OVER -> throw refusedFinish(jobId, NOT_YET_HANDED_OVER);
            default -> { }
        }
        JournalEntry entry = journalAfterEnds(List.of(jobId)).get(jobId);
        if (entry == null) {
            throw new JobNotFoundException(jobId);
        }
        String refusal = finishAbsent(entry, now);
        if (refusal != null) {
            throw new JobStateConflictException(jobId, "job " + jobId + " is " + refusal);
        }
    }

    private static JobStateConflictException refusedFinish(String jobId, String why) {
        return new JobStateConflictException(jobId, "job " + jobId + " is " + why);
    }

    /**
     * A puller gives a reserved job back, due again in {@code delayMs} (0 = now): journaled ConsumerFailRestore, its
     * reservation counted as a try. A job out of tries or ttl is buried as dead instead; answers whether it was.
     */
    public boolean release(String jobId, Long delayMs) {
        requireId(jobId);
        long delay = delayMs == null ? 0 : delayMs;
        long maxDelay = properties.getLimits().getMaxDelay().toMillis();
        if (delay < 0 || delay > maxDelay) {
            throw new InvalidJobException("delay", "must be 0.." + maxDelay + " ms, was " + delay);
        }
        long now = clock.millis();
        DelayStore.Released released = store.release(jobId, now + delay, now, properties.getLimits().getDefaultTries());
        switch (released.outcome()) {
            case RELEASED -> {
                states.submit(StateChange.of(jobId, JobStatus.ConsumerFailRestore, now));
                wakeBucket.accept(store.bucketOf(jobId), now + delay);
                return false;
            }
            case SPENT -> {
                outcomes.bury(store.bucketOf(jobId), List.of(released.job()));
                return true;
            }
            default -> throw notReserved(jobId);
        }
    }

    /** Extends a puller's reservation of a job to {@code ttrMs} from now. */
    public void touch(String jobId, Long ttrMs) {
        requireId(jobId);
        long ttr = checkedTtr(ttrMs);
        if (!store.touch(jobId, ttr)) {
            throw notReserved(jobId);
        }
    }

    /** 404 for an unknown job, else 409 naming its journal state. */
    private RuntimeException notReserved(String jobId) {
        JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
        return new JobStateConflictException(jobId, "job " + jobId + " is not reserved (" + entry.status() + ")");
    }

    private long checkedTtr(Long ttrMs) {
        DelayProperties.Pull limits = properties.getPull();
        long ttr = ttrMs == null ? limits.getDefaultTtr().toMillis() : ttrMs;
        if (ttr < 1 || ttr > limits.getMaxTtr().toMillis()) {
            throw new InvalidJobException("ttr", "must be 1.." + limits.getMaxTtr().toMillis() + " ms");
        }
        return ttr;
    }

    private static void requireId(String jobId) {
        JobValidator.requireId("jobId", jobId);
    }
}
