package io.mykit.delay.queue.recovery;

import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.EndingsBarrier;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.store.RestoreMarks;
import io.mykit.delay.queue.store.StoreAdmin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds Redis from the journal. A restored job keeps its journal status (it is pending either way); the restore is
 * logged as a Restore row per job, which spares a million-row restore a million index-moving UPDATEs. Safe while the
 * gateway runs: it pages the journal by primary key, only adds what Redis lacks (add.lua is HSETNX on the pool, so a
 * job waiting, in flight or ready is never copied), and never deletes anything. It cannot bring back a job that ends
 * while it runs: it marks every bucket first (each end then leaves a tombstone its adds skip), and waits for ends
 * already under way to reach the journal before reading it. One full restore runs at a time.
 */
public class RecoveryService {
    private static final Logger log = LoggerFactory.getLogger(RecoveryService.class);
    private static final long PROGRESS_LOG_EVERY = 100_000;
    /** Longest a restore waits for queued journal changes before it reads the journal. */
    private static final long FLUSH_MS = 10_000;
    /** Pages at least this large are added to Redis in two halves at once. */
    private static final int SPLIT_AT = 500;

    private final Journal journal;
    private final RestoreMarks store;
    private final StoreAdmin admin;
    private final StateChangeWriter states;
    private final BucketWaker wakeBucket;
    private volatile EndingsBarrier endings;
    private final Clock clock;
    private final int pageSize;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicReference<RestoreReport> last = new AtomicReference<>();
    private final Executor journalWriter = daemon("mykit-restore-journal");
    private final Executor journalReader = daemon("mykit-restore-read");
    private final Executor redisAdder = daemon("mykit-restore-add");

    public RecoveryService(
            Journal journal,
            RestoreMarks store,
            StoreAdmin admin,
            StateChangeWriter states,
            BucketWaker wakeBucket,
            Clock clock,
            int pageSize) {
        this.journal = journal;
        this.store = store;
        this.admin = admin;
        this.states = states;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
        this.pageSize = pageSize;
        this.endings = states::flushEndings;
    }

    /** How to wait for ends under way before reading the journal: this node's writer (default) or every node's. */
    public void endingsBarrier(EndingsBarrier barrier) {
        this.endings = barrier;
    }

    /** Whether a restore runs now, from its first step (waiting for ends under way) to its last. */
    public boolean isRunning() {
        return running.get();
    }

    /** The running restore's progress, else the last one's outcome; null when none ran. */
    public RestoreReport status() {
        return last.get();
    }

    /** Restores every journaled job not yet ended that Redis lacks; {@code includeExpired} also those already due. */
    public RestoreReport restore(boolean includeExpired) {
        if (!running.compareAndSet(false, true)) {
            throw new JobStateConflictException(null, "a restore is already running: " + last.get());
        }
        long started = clock.millis();
        long scanned = 0;
        long restored = 0;
        long skipped = 0;
        long leftToPush = 0;
        try {
            store.beginRestore();
        } catch (RuntimeException e) {
            running.set(false);
            throw e;
        }
        try {
            // from here on every end leaves a tombstone; ends begun before must be in the journal before it is read
            if (!endings.await(FLUSH_MS)) {
                throw new StoreUnavailableException(
                        "journal",
                        "queued state changes not written within " + FLUSH_MS
                                + " ms; a restore now could bring back jobs that just ended",
                        null);
            }
            last.set(report(true, includeExpired, 0, 0, 0, 0, started));
            // three stages at once: page k+1 is read and page k-1's Restore rows written while page k goes to Redis
            CompletableFuture<List<JournalEntry>> reading = readPage("");
            CompletableFuture<Void> journaling = CompletableFuture.completedFuture(null);
            while (true) {
                List<JournalEntry> page = reading.join();
                if (page.isEmpty()) {
                    break;
                }
                reading = page.size() < pageSize
                        ? CompletableFuture.completedFuture(List.of())
                        : readPage(page.get(page.size() - 1).job().getId());
                scanned += page.size();
                long now = clock.millis();
                List<Job> wanted = new ArrayList<>(page.size());
                for (JournalEntry entry : page) {
                    if (entry.status() == JobStatus.WaitPut) {
                        // its push may add it any moment (and it may be delivered and finished before that add, which
                        // would then bring it back): WaitPut rows are the push's, or the stranded-job repairer's
                        leftToPush++;
                    } else if (includeExpired || entry.job().dueTime() >= now) {
                        wanted.add(entry.job());
                    } else {
                        skipped++;
                    }
                }
                store.keepRestoring();
                List<StateChange> changes = storeMissing(wanted, now);
                restored += changes.size();
                journaling.join();
                journaling = CompletableFuture.runAsync(() -> journal.log(changes), journalWriter);
                last.set(report(true, includeExpired, scanned, restored, skipped, leftToPush, started));
                if (scanned / PROGRESS_LOG_EVERY != (scanned - page.size()) / PROGRESS_LOG_EVERY) {
                    log.info(
                            "restore in progress: {} scanned, {} restored, {} skipped as expired",
                            scanned,
                            restored,
                            skipped);
                }
            }
            journaling.join();
            RestoreReport done = report(false, includeExpired, scanned, restored, skipped, leftToPush, started);
            last.set(done);
            log.info("restore done: {}", done);
            return done;
        } catch (CompletionException e) {
            last.set(report(false, includeExpired, scanned, restored, skipped, leftToPush, started));
            throw e.getCause() instanceof RuntimeException re ? re : e;
        } catch (RuntimeException | InterruptedException e) {
            last.set(report(false, includeExpired, scanned, restored, skipped, leftToPush, started));
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
        } finally {
            endRestore();
            running.set(false);
        }
    }

    /** Restores one job; answers whether Redis lacked it. */
    public boolean restoreJob(String jobId) {
        store.beginRestore();
        try {
            if (!endings.await(FLUSH_MS)) {
                throw new StoreUnavailableException(
                        "journal", "queued state changes not written within " + FLUSH_MS + " ms", null);
            }
            JournalEntry entry = journal.find(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
            if (entry.status().isTerminal()) {
                throw new JobStateConflictException(jobId, "job " + jobId + " already ended: " + entry.status());
            }
            if (entry.status() == JobStatus.WaitPut) {
                throw new JobStateConflictException(
                        jobId,
                        "job " + jobId + " is being stored by its push; if that"
                                + " push failed, the stranded-job repairer stores it");
            }
            List<StateChange> changes = storeMissing(List.of(entry.job()), clock.millis());
            journal.log(changes);
            return !changes.isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("gateway", "interrupted", e);
        } finally {
            endRestore();
        }
    }

    private RestoreReport report(
            boolean running,
            boolean includeExpired,
            long scanned,
            long restored,
            long skipped,
            long leftToPush,
            long started) {
        return new RestoreReport(
                running,
                includeExpired,
                scanned,
                restored,
                scanned - skipped - restored - leftToPush,
                skipped,
                leftToPush,
                started,
                clock.millis() - started);
    }

    private void endRestore() {
        try {
            store.endRestore();
        } catch (RuntimeException e) {
            // the marks expire by themselves; until then ends only leave a few more tombstones
            log.warn("could not clear the restore marks in Redis: {}", e.getMessage());
        }
    }

    /** Removes this gateway's queue data from Redis; the journal is untouched, so restore brings it back. */
    public long clearAll() {
        long removed = admin.clear();
        log.warn(
                "clearAll removed {} Redis keys; the journal still holds every job (GET /reStore brings them back)",
                removed);
        return removed;
    }

    /** The next page of pending jobs after {@code afterId}, read on the restore's reader thread. */
    private CompletableFuture<List<JournalEntry>> readPage(String afterId) {
        return CompletableFuture.supplyAsync(() -> journal.findPendingAfter(afterId, pageSize), journalReader);
    }

    private static Executor daemon(String name) {
        return command -> {
            Thread thread = new Thread(command, name);
            thread.setDaemon(true);
            thread.start();
        };
    }

    /**
     * Adds the jobs Redis lacks; returns their Restore changes, to be journaled by the caller. A large page goes in two
     * halves at once, so one half's records are encoded while Redis runs the other's scripts.
     */
    private List<StateChange> storeMissing(List<Job> jobs, long now) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        java.util.Set<String> addedIds = new java.util.HashSet<>();
        if (jobs.size() >= SPLIT_AT) {
            List<Job> odd = new ArrayList<>(jobs.size() / 2 + 1);
            List<Job> even = new ArrayList<>(jobs.size() / 2 + 1);
            jobs.forEach(job -> (store.bucketOf(job.getId()) % 2 == 0 ? even : odd).add(job));
            CompletableFuture<List<String>> oddAdded =
                    CompletableFuture.supplyAsync(() -> store.addUnlessEnded(odd), redisAdder);
            List<String> evenAdded;
            try {
                evenAdded = store.addUnlessEnded(even);
            } catch (RuntimeException e) {
                // ending the restore drops the marks and tombstones its adds obey: the other half must be over first
                oddAdded.exceptionally(failure -> List.of()).join();
                throw e;
            }
            addedIds.addAll(evenAdded);
            addedIds.addAll(oddAdded.join());
        } else {
            addedIds.addAll(store.addUnlessEnded(jobs));
        }
        List<StateChange> changes = new ArrayList<>(addedIds.size());
        for (Job job : jobs) {
            if (addedIds.contains(job.getId())) {
                changes.add(StateChange.of(job.getId(), JobStatus.Restore, now));
                wakeBucket.wake(store.bucketOf(job.getId()), job.dueTime());
            }
        }
        return changes;
    }
}
