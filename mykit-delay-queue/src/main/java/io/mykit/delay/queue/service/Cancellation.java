package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Cancels jobs so they are never delivered: one by id, every one of a bizKey, or every pending one. A cancel takes the
 * job out of Redis first (refused once it was handed over), then journals Delete, inside one end of the state writer so
 * a restore running meanwhile cannot bring the job back.
 */
public class Cancellation {
    /** Most jobs one bizKey cancel ends: its answer lists each of them. */
    public static final int MAX_CANCEL_PAGE = 1_000;

    private static final int CANCEL_ALL_PAGE = 1_000;
    private static final int CANCEL_ALL_REFUSALS_LISTED = 1_000;

    private final DelayStore store;
    private final Journal journal;
    private final StateChangeWriter states;
    private final Clock clock;

    public Cancellation(DelayStore store, Journal journal, StateChangeWriter states, Clock clock) {
        this.store = store;
        this.journal = journal;
        this.states = states;
        this.clock = clock;
    }

    /**
     * Cancels a job so it is never delivered: only while it still waits (in its bucket or a pull topic's ready list). A
     * job already handed to its target or reserved by a puller is refused with 409: it may have been delivered.
     */
    public void cancel(String jobId) {
        JobValidator.requireId("jobId", jobId);
        DelayStore.RemoveResult removed;
        try (StateChangeWriter.Ending ending = states.beginEnding()) {
            removed = store.delete(jobId);
            if (removed == DelayStore.RemoveResult.IN_FLIGHT) {
                throw new JobStateConflictException(
                        jobId,
                        "job " + jobId + " is already handed over (delivered or"
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
            PendingEnds.awaitWritten(states);
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
            throw new JobStateConflictException(
                    jobId, "job " + jobId + " is being stored; cancel it again in a moment");
        }
        throw new JobStateConflictException(jobId, "job " + jobId + " already ended: " + entry.status());
    }

    /**
     * Cancels every pending job the journal holds, one by one through {@link #cancel} (so each is journaled Delete and
     * never delivered afterwards); jobs already handed over, or still being stored, are refused and reported.
     */
    public CancelAllReport cancelAllPending() {
        long[] cancelled = {0};
        Map<String, String> refused = new LinkedHashMap<>();
        cancelEach(
                after -> journal.findPendingAfter(after, CANCEL_ALL_PAGE),
                CANCEL_ALL_PAGE,
                id -> cancelled[0]++,
                (id, why) -> {
                    if (refused.size() < CANCEL_ALL_REFUSALS_LISTED) {
                        refused.put(id, why);
                    }
                });
        return new CancelAllReport(cancelled[0], refused);
    }

    /** Cancels each job of the pages {@code nextPage} gives (keyset by id), as {@link #cancel} does, and reports. */
    private void cancelEach(
            Function<String, List<JournalEntry>> nextPage,
            int pageSize,
            Consumer<String> cancelled,
            BiConsumer<String, String> refused) {
        String after = "";
        List<JournalEntry> page;
        do {
            page = nextPage.apply(after);
            for (JournalEntry entry : page) {
                String id = entry.job().getId();
                try {
                    cancel(id);
                    cancelled.accept(id);
                } catch (JobStateConflictException | JobNotFoundException e) {
                    refused.accept(id, e.getMessage());
                }
                after = id;
            }
        } while (page.size() == pageSize);
    }

    /**
     * Cancels the jobs of {@code bizKey} in {@code topic} not yet ended, by id after {@code afterId}, at most
     * {@code limit} of them, each as {@link #cancel} does (so none of them is delivered afterwards, whatever restore
     * follows); a job that can no longer be cancelled is reported, not fatal.
     */
    public CancelReport cancelByBizKey(String topic, String bizKey, String afterId, int limit) {
        JobValidator.requireTopic(topic);
        JobValidator.requireBizKey(bizKey);
        JobValidator.requirePage(afterId, limit, MAX_CANCEL_PAGE);
        // one more than the page tells whether another page follows
        List<JournalEntry> page = journal.findByBizKey(bizKey, topic, true, afterId == null ? "" : afterId, limit + 1);
        List<String> cancelled = new ArrayList<>();
        Map<String, String> refused = new LinkedHashMap<>();
        String last = null;
        for (JournalEntry entry : page.subList(0, Math.min(limit, page.size()))) {
            last = entry.job().getId();
            try {
                cancel(last);
                cancelled.add(last);
            } catch (JobStateConflictException | JobNotFoundException e) {
                refused.put(last, e.getMessage());
            }
        }
        boolean more = page.size() > limit;
        return new CancelReport(cancelled, refused, more, more ? last : null);
    }
}
