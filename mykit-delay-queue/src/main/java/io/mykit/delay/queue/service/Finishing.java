package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Acknowledges pulled jobs, one or many: the job leaves Redis (with a finish mark) in one atomic step, the answer goes
 * out, and the state writer journals Finish afterwards. A job Redis no longer holds is judged by its journal entry once
 * the ends under way are written.
 */
public class Finishing {
    /** Why a finish of a job no puller reserved, held by a broker sender, is refused. */
    private static final String HANDED_TO_TARGET = "handed to its delivery target, not reserved by a puller: the target"
            + " delivers it, a finish cannot end it";
    /** Why a finish of a due job not yet handed over (its target may be a broker) is refused. */
    private static final String NOT_YET_HANDED_OVER =
            "due but not yet handed over, not reserved by a puller; delete it instead";

    private final JobValidator validator;
    private final DelayStore store;
    private final Journal journal;
    private final StateChangeWriter states;
    private final Clock clock;

    public Finishing(JobValidator validator, DelayStore store, Journal journal, StateChangeWriter states, Clock clock) {
        this.validator = validator;
        this.store = store;
        this.journal = journal;
        this.states = states;
        this.clock = clock;
    }

    /**
     * Acknowledges a pulled job: it is done and never delivered again. Finishing it again is not an error. A job a
     * puller never had is not the caller's to finish (409): one handed to a broker sender (the broker delivers it) or
     * one due and not yet handed over.
     */
    public void finish(String jobId) {
        JobValidator.requireId("jobId", jobId);
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
            default -> {}
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

    /**
     * Acknowledges many pulled jobs in one Redis round trip. Each id is finished or gets the reason it was not, as
     * {@link #finish} would have refused it; a job already finished counts as finished.
     */
    public FinishReport finishAll(List<String> jobIds) {
        validator.requireJobIds(jobIds);
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
        PendingEnds.awaitWritten(states);
        return journal.findAll(jobIds);
    }

    /**
     * Finishes a job Redis no longer holds, judged by its journal entry; returns why not, or null when it is finished.
     * A due job the journal shows Ready was handed to a puller and then left Redis: most likely an earlier finish of
     * ours whose reply was lost (or Redis lost its data), so the puller's finish is taken and journaled.
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

    private static JobStateConflictException refusedFinish(String jobId, String why) {
        return new JobStateConflictException(jobId, "job " + jobId + " is " + why);
    }
}
