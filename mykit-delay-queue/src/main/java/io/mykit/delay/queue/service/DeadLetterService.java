package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.store.JobWrites;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Dead letters live in the journal only (status Dead): listing pages by id; respawn journals them WaitPut again, then
 * stores them due now with fresh tries (a crash in between leaves WaitPut rows the repairer stores); drop journals them
 * Delete.
 */
public class DeadLetterService {
    private static final int PAGE = 500;
    /** Ids one respawn or drop names when no limit is given: the push batch's default size. */
    public static final int DEFAULT_MAX_IDS = 1_000;

    private final Journal journal;
    private final JobWrites store;
    private final StateChangeWriter states;
    private final BucketWaker wakeBucket;
    private final Clock clock;
    private final int maxIds;

    public DeadLetterService(
            Journal journal, JobWrites store, StateChangeWriter states, BucketWaker wakeBucket, Clock clock) {
        this(journal, store, states, wakeBucket, clock, DEFAULT_MAX_IDS);
    }

    /** {@code maxIds}: most ids one respawn or drop may name; more is refused before anything changes. */
    public DeadLetterService(
            Journal journal,
            JobWrites store,
            StateChangeWriter states,
            BucketWaker wakeBucket,
            Clock clock,
            int maxIds) {
        this.journal = journal;
        this.store = store;
        this.states = states;
        this.wakeBucket = wakeBucket;
        this.clock = clock;
        this.maxIds = maxIds;
    }

    public List<Job> list(String topic, String afterId, int limit) {
        checkTopic(topic);
        if (limit < 1 || limit > 1000) {
            throw new InvalidJobException("limit", "must be 1..1000");
        }
        return journal.findByTopicAndStatus(topic, JobStatus.Dead, afterId == null ? "" : afterId, null, limit);
    }

    /** Puts dead jobs of the topic (all, or only {@code ids}) back, due now; returns how many. */
    public int respawn(String topic, List<String> ids) {
        return respawn(topic, ids, Integer.MAX_VALUE);
    }

    /** Puts at most {@code max} dead jobs of the topic (all, or only {@code ids}) back, due now; returns how many. */
    public int respawn(String topic, List<String> ids, int max) {
        checkTopic(topic);
        return forEachDeadPage(topic, ids, max, page -> {
            long now = clock.millis();
            List<String> moved = journal.transition(
                    page.stream().map(Job::getId).toList(),
                    JobStatus.Dead,
                    JobStatus.WaitPut,
                    Thread.currentThread().getName(),
                    now);
            List<Job> fresh = new ArrayList<>(moved.size());
            for (Job job : page) {
                if (moved.contains(job.getId())) {
                    fresh.add(new Job(
                            job.getId(),
                            job.getTopic(),
                            job.getSubtopic(),
                            job.getBizKey(),
                            0,
                            0,
                            job.getTtl(),
                            job.getTries(),
                            job.getBody(),
                            now));
                }
            }
            // respawn, not add: a leftover record of the dead job (a forget that failed) must not keep it from running
            store.respawn(fresh);
            fresh.forEach(job -> {
                states.submit(StateChange.stored(job.getId(), now));
                wakeBucket.wake(store.bucketOf(job.getId()), now);
            });
            return fresh.size();
        });
    }

    /** Drops dead jobs of the topic (all, or only {@code ids}) for good; returns how many. */
    public int drop(String topic, List<String> ids) {
        checkTopic(topic);
        return forEachDeadPage(
                topic,
                ids,
                Integer.MAX_VALUE,
                page -> journal.transition(
                                page.stream().map(Job::getId).toList(),
                                JobStatus.Dead,
                                JobStatus.Delete,
                                Thread.currentThread().getName(),
                                clock.millis())
                        .size());
    }

    /** Dead jobs of the topic (all, or only {@code ids}) a respawn would put back, counted up to {@code upTo}. */
    public long countDead(String topic, List<String> ids, long upTo) {
        checkTopic(topic);
        int bound = (int) Math.min(upTo, Integer.MAX_VALUE);
        if (ids == null) {
            return journal.deadLetters(topic, bound);
        }
        return forEachDeadPage(topic, ids, bound, List::size);
    }

    /** Refuses a list of more ids than one respawn or drop may name, before anything changes. */
    public void requireIdCount(List<String> ids) {
        requireIdCount(ids, maxIds);
    }

    private void requireIdCount(List<String> ids, int most) {
        // each page's query carries every id: a huge list made the journal refuse the statement
        if (ids != null && ids.size() > most) {
            throw new InvalidJobException(
                    "ids", "at most " + maxIds + " ids per call (limits.max-batch-size), was " + ids.size());
        }
    }

    private int forEachDeadPage(
            String topic, List<String> ids, int max, java.util.function.ToIntFunction<List<Job>> action) {
        if (ids != null) {
            // a tenant's list carries each id in both its forms (stored and plain): twice the ids it named
            requireIdCount(ids, 2 * maxIds);
            ids.forEach(id -> JobValidator.requireId("ids", id));
        }
        int total = 0;
        String after = "";
        while (total < max) {
            List<Job> page =
                    journal.findByTopicAndStatus(topic, JobStatus.Dead, after, ids, Math.min(PAGE, max - total));
            if (page.isEmpty()) {
                return total;
            }
            total += action.applyAsInt(page);
            after = page.get(page.size() - 1).getId();
        }
        return total;
    }

    private static void checkTopic(String topic) {
        JobValidator.requireTopic(topic);
    }
}
