package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.loop.LoopHeartbeat;
import io.mykit.delay.queue.loop.SupervisedThread;
import io.mykit.delay.queue.metrics.QueueMetrics;
import io.mykit.delay.queue.store.JobWrites;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for the push path. Pushes queue up while a writer commits the previous group, so concurrent pushes share
 * one multi-row INSERT, one commit and one pipelined Redis round trip:
 *
 * <pre>
 *  push ─┐
 *  push ─┼─▶ queue ─▶ writer: journal INSERT (Delay) + log + storing row ─▶ commit ─▶ Redis add (NX) ─▶ answer all
 *  push ─┘                              │ fails: 503, nothing stored        │ fails: 200 all the same,
 *                                                                           the repairer stores it later
 * </pre>
 *
 * The storing row (one per group, listing its ids) marks the group as not yet in Redis; the state writer deletes it
 * after the add. A crash or a Redis failure in between leaves it for the stranded-job repairer.
 *
 * <p>A call still queued when its caller stops waiting (the push timeout) is withdrawn ({@link #withdraw}): no writer
 * takes it afterwards, so its 503 can say that nothing was stored, and a stalled journal's queue holds only the calls
 * someone still waits for, however often clients retry.
 *
 * <p>With several writers the groups overlap: one writer at a time gathers and sends its INSERTs (holding the gather
 * turn), and hands the turn on before its COMMIT, so the next group gathers while this one waits for the disk. Each
 * push is still answered only after its own group's commit. A push that finds the turn free takes it and commits on its
 * own (request) thread, with whatever is queued behind it: the writers serve pushes that arrive while a group is being
 * gathered or while as many groups as there are writers are being committed.
 */
public class PushPipeline implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PushPipeline.class);
    /** Groups below this many jobs commit one at a time ({@link #smallTurn}). */
    static final int SMALL_GROUP_ROWS = 32;
    /**
     * A group this small lingers for more pushes; a larger one commits at once: clients waiting for their answers (a
     * closed loop) make groups this large without help, and a linger would only slow them down.
     */
    static final int LINGER_BELOW_ROWS = 4;
    /** How long a small group waits for the small-commit turn before it commits side by side anyway. */
    static final long SMALL_TURN_WAIT_MS = 100;

    /**
     * One push call waiting for its group's commit; {@code clientIds} are the ids the client chose (may already be
     * journaled). A writer takes it into a group, or its caller withdraws it ({@link #withdraw}): never both.
     */
    public static final class Pending {
        private static final int QUEUED = 0;
        private static final int TAKEN = 1;
        private static final int WITHDRAWN = 2;

        private final List<Job> jobs;
        private final Set<String> clientIds;
        private final CompletableFuture<Set<String>> done;
        private final AtomicInteger state = new AtomicInteger(QUEUED);

        private Pending(List<Job> jobs, Set<String> clientIds, CompletableFuture<Set<String>> done) {
            this.jobs = jobs;
            this.clientIds = clientIds;
            this.done = done;
        }

        /** Completes as {@link #submit} says. */
        public CompletableFuture<Set<String>> done() {
            return done;
        }

        List<Job> jobs() {
            return jobs;
        }

        Set<String> clientIds() {
            return clientIds;
        }

        /** For a writer: true when the call is now part of its group (its caller can no longer withdraw it). */
        boolean take() {
            return state.compareAndSet(QUEUED, TAKEN);
        }
    }

    private final Journal journal;
    private final JobWrites store;
    private final StateChangeWriter states;
    private final BucketWaker wakeBucket;
    private final Clock clock;
    private final int batchSize;
    private final LinkedBlockingDeque<Pending> queue = new LinkedBlockingDeque<>();
    private final List<SupervisedThread> writers = new ArrayList<>();
    /** Held by the writer gathering a group, up to its COMMIT: a later group's id check then sees its rows. */
    private final ReentrantLock gatherTurn = new ReentrantLock();
    /**
     * Groups being committed at once, at most one per writer: callers committing their own pushes would otherwise
     * commit one-push groups side by side under load, each a transaction and a disk sync of its own.
     */
    private final Semaphore groups;
    /**
     * Held while a small group's journal call runs (not its Redis add). Single pushes from many clients make groups of
     * a few jobs; committed side by side, a commit's fixed cost per job would be most of the database's CPU per push,
     * so one small commit at a time lets the next group gather meanwhile. Large groups (batch calls) still commit side
     * by side: their rows, not the commit, are the cost.
     */
    private final Semaphore smallTurn = new Semaphore(1);

    /** How long a small group waits for more pushes while the journal is busy (0: never). */
    private final long lingerNanos;
    /** When the last small commit ended (System.nanoTime): a commit that recent means the journal is busy. */
    private volatile long lastSmallCommitEnd = Long.MIN_VALUE / 2;

    private volatile boolean running = true;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    public PushPipeline(
            Journal journal,
            JobWrites store,
            StateChangeWriter states,
            BucketWaker wakeBucket,
            Clock clock,
            int batchSize,
            int writerCount) {
        this(journal, store, states, wakeBucket, clock, batchSize, writerCount, 0);
    }

    /** {@code lingerNanos}: how long a small group waits for more pushes while the journal is busy (0: never). */
    public PushPipeline(
            Journal journal,
            JobWrites store,
            StateChangeWriter states,
            BucketWaker wakeBucket,
            Clock clock,
            int batchSize,
            int writerCount,
            long lingerNanos) {
        this.lingerNanos = lingerNanos;
        this.journal = journal;
        this.store = store;
        this.states = states;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
        this.batchSize = batchSize;
        this.groups = new Semaphore(writerCount);
        for (int i = 0; i < writerCount; i++) {
            writers.add(new SupervisedThread("mykit-push-writer-" + i, this::run, () -> running));
        }
    }

    public void start() {
        writers.forEach(Thread::start);
    }

    /** Where push counts, latencies and group commits are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** The writer threads' states, for health. */
    public List<LoopHeartbeat> heartbeats() {
        return writers.stream().map(SupervisedThread::heartbeat).toList();
    }

    /** Push calls waiting for a writer (grows while the journal is slow or down). */
    public int backlog() {
        return queue.size();
    }

    /**
     * A call whose {@link Pending#done} completes when the jobs are journaled (and, unless Redis failed, in Redis),
     * with the ids among them that were journaled already (kept as they were); fails with
     * {@link StoreUnavailableException} when the journal did not take them.
     */
    public Pending submit(List<Job> jobs, Set<String> clientIds) {
        CompletableFuture<Set<String>> done = new CompletableFuture<>();
        long started = System.nanoTime();
        QueueMetrics reporting = metrics;
        done.whenComplete((ok, failure) -> reporting.pushed(jobs, System.nanoTime() - started, failure != null));
        Pending pending = new Pending(jobs, clientIds, done);
        if (!running) {
            done.completeExceptionally(new StoreUnavailableException("gateway", "shutting down", null));
            return pending;
        }
        // only pushes without client ids: their whole commit is one journal call bounded by the push timeout
        if (clientIds.isEmpty() && tryEnterGroup()) {
            // nobody is gathering: the caller gathers and commits itself, two thread hand-offs fewer than a writer
            gatherAndCommit(pending, new ArrayList<>());
            return pending;
        }
        queue.add(pending);
        return pending;
    }

    /**
     * Drops a call no writer has taken yet, so none of its jobs is ever journaled: its caller gave up waiting (and
     * answered 503). False when a writer took it already: its commit goes on, its outcome unknown to the caller.
     */
    public boolean withdraw(Pending pending) {
        if (!pending.state.compareAndSet(Pending.QUEUED, Pending.WITHDRAWN)) {
            return false;
        }
        // a stalled journal must not keep the calls its callers gave up on: retries would grow the queue without end
        queue.remove(pending);
        pending.done.completeExceptionally(new StoreUnavailableException("journal", "withdrawn by its caller", null));
        return true;
    }

    private void run() {
        List<Pending> group = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                // waits for work without the turn, so an idle writer never keeps a caller from committing itself
                Pending first = queue.pollFirst(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                if (!tryEnterGroup()) {
                    // busy: the call goes back to the head for whoever gathers next, not held here while this waits
                    queue.offerFirst(first);
                    if (first.state.get() == Pending.WITHDRAWN) {
                        // withdrawn while out of the queue: its caller's removal missed it
                        queue.remove(first);
                    }
                    enterGroup();
                    first = queue.pollFirst();
                    if (first == null) {
                        gatherTurn.unlock();
                        groups.release();
                        continue;
                    }
                }
                gatherAndCommit(first, group);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Takes a group slot and the gather turn if both are free at once; true when it holds both. */
    private boolean tryEnterGroup() {
        if (!groups.tryAcquire()) {
            return false;
        }
        if (gatherTurn.tryLock()) {
            return true;
        }
        groups.release();
        return false;
    }

    /** Takes a group slot, then the gather turn; interrupted, holds neither. */
    private void enterGroup() throws InterruptedException {
        groups.acquire();
        try {
            gatherTurn.lockInterruptibly();
        } catch (InterruptedException e) {
            groups.release();
            throw e;
        }
    }

    /**
     * Holding the gather turn and a group slot: adds what is queued behind {@code first} to the group and commits it;
     * gives the turn back before the COMMIT (fresh ids) and the slot at the end.
     */
    private void gatherAndCommit(Pending first, List<Pending> group) {
        boolean[] turn = {true};
        Runnable passTurn = () -> {
            if (turn[0]) {
                turn[0] = false;
                gatherTurn.unlock();
            }
        };
        boolean[] small = {false};
        Runnable committed = () -> {
            if (small[0]) {
                small[0] = false;
                lastSmallCommitEnd = System.nanoTime();
                smallTurn.release();
            }
        };
        try {
            int rows = 0;
            if (first.take()) {
                group.add(first);
                rows = first.jobs().size();
            }
            rows = gather(group, rows);
            if (group.isEmpty()) {
                return;
            }
            if (rows < SMALL_GROUP_ROWS) {
                // small groups commit one at a time: the pushes that arrive meanwhile join the next one; bounded, so
                // a commit stuck on a lock (a client id's check) delays a caller committing on its own thread little
                small[0] = smallTurn.tryAcquire(SMALL_TURN_WAIT_MS, TimeUnit.MILLISECONDS);
                rows = gather(group, rows);
                if (small[0]) {
                    linger(group, rows);
                }
            }
            commit(group, passTurn, committed);
        } catch (Throwable e) {
            log.error("push group of {} calls failed unexpectedly", group.size(), e);
            group.forEach(p -> p.done().completeExceptionally(e));
        } finally {
            passTurn.run();
            committed.run();
            group.clear();
            groups.release();
        }
    }

    /**
     * While the journal is busy (a small commit ended within the linger), a group of fewer than
     * {@link #LINGER_BELOW_ROWS} jobs waits up to the linger for more pushes to join it: at a steady rate of single
     * pushes a commit otherwise carries one or two of them, and its fixed cost is most of the database's CPU per push.
     * Holding the gather turn, so arriving pushes queue for this group.
     */
    private void linger(List<Pending> group, int rows) throws InterruptedException {
        long start = System.nanoTime();
        if (lingerNanos <= 0 || start - lastSmallCommitEnd > lingerNanos) {
            return;
        }
        long end = start + lingerNanos;
        long left;
        while (rows < LINGER_BELOW_ROWS && (left = end - System.nanoTime()) > 0) {
            Pending next = queue.pollFirst(left, TimeUnit.NANOSECONDS);
            if (next == null) {
                return;
            }
            if (next.take()) {
                group.add(next);
                rows += next.jobs().size();
            }
        }
    }

    /** Adds queued calls to {@code group} (holding {@code rows} jobs) up to the batch size; returns its rows. */
    private int gather(List<Pending> group, int rows) {
        Pending next;
        while (rows < batchSize && (next = queue.poll()) != null) {
            if (next.take()) {
                group.add(next);
                rows += next.jobs().size();
            }
        }
        return rows;
    }

    /**
     * {@code passTurn} is run once this group's rows are sent, before their COMMIT (or on failure); {@code committed}
     * once the journal call returned, before the Redis add (a slow Redis does not hold up the next group's commit).
     */
    private void commit(List<Pending> group, Runnable passTurn, Runnable committed) {
        Set<String> clientIds = new HashSet<>();
        group.forEach(p -> clientIds.addAll(p.clientIds()));
        Map<String, Job> fresh = new LinkedHashMap<>();
        String groupKey;
        if (clientIds.isEmpty()) {
            // ids the gateway just made: no later group's id check can look for them, so it may gather at once
            passTurn.run();
        }
        try {
            Set<String> known = journal.existingIds(clientIds);
            // a repeated id (already journaled, or twice in this group) changes nothing: first one wins
            group.forEach(p -> p.jobs().forEach(job -> {
                if (!known.contains(job.getId())) {
                    fresh.putIfAbsent(job.getId(), job);
                }
            }));
            long started = System.nanoTime();
            groupKey = journal.insertWaitPut(
                    List.copyOf(fresh.values()), Thread.currentThread().getName(), clock.millis(), passTurn);
            metrics.journalBatch("push", fresh.size(), System.nanoTime() - started);
        } catch (StoreUnavailableException e) {
            passTurn.run();
            group.forEach(p -> p.done().completeExceptionally(e));
            return;
        }
        passTurn.run();
        committed.run();
        try {
            store.add(fresh.values());
        } catch (StoreUnavailableException e) {
            // accepted all the same: the journal has them, and a 503 would make a client without ids push them twice
            log.warn(
                    "{} jobs journaled but not stored in Redis ({}); the repairer stores them when Redis answers",
                    fresh.size(),
                    e.getMessage());
            group.forEach(p -> p.done().complete(duplicates(p, fresh)));
            return;
        }
        for (Job job : fresh.values()) {
            wakeBucket.wake(store.bucketOf(job.getId()), job.dueTime());
        }
        if (groupKey != null) {
            // one row per group instead of a status UPDATE and a log row per job
            states.submit(StateChange.groupStored(groupKey, clock.millis()));
        }
        group.forEach(p -> p.done().complete(duplicates(p, fresh)));
    }

    /** A call's ids that were not journaled by it: known before, or taken by another job of the same group. */
    private static Set<String> duplicates(Pending pending, Map<String, Job> fresh) {
        if (pending.clientIds().isEmpty()) {
            return Set.of();
        }
        Set<String> duplicates = new HashSet<>();
        for (Job job : pending.jobs()) {
            if (fresh.get(job.getId()) != job) {
                duplicates.add(job.getId());
            }
        }
        return duplicates;
    }

    @Override
    public void close() {
        running = false;
        for (Thread writer : writers) {
            try {
                writer.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
