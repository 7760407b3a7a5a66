package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.model.Job;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A long-poll waiting without a thread: each look runs on a poll worker (the first on the caller's thread). Jobs
 * reserved for a poll whose client went away are given back.
 *
 * <pre>
 *  WAITING --look (first, wake-up, safety re-check, deadline)--> RUNNING --jobs / last look--> DONE
 *     ^                                                          |
 *     +------------------------- nothing yet ---------------------+
 *  cancel (client gone): WAITING -> DONE at once; RUNNING -> its jobs are given back
 * </pre>
 */
final class AsyncPoll implements TopicSignal.Sleeper {
    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;

    private final LongPolls polls;
    private final TopicSignal signal;
    private final String topic;
    private final int max;
    private final long ttrMs;
    private final long deadline;
    private final PollAnswer answer;
    /** Starts WAITING: nothing else knows the poll before its first look, which wins it like any later one. */
    private final AtomicInteger state = new AtomicInteger(WAITING);

    private volatile boolean cancelled;
    /** Answers the poll at its deadline; set once the first look found nothing. */
    volatile ScheduledFuture<?> deadlineTask;

    AsyncPoll(
            LongPolls polls, TopicSignal signal, String topic, int max, long ttrMs, long deadline, PollAnswer answer) {
        this.polls = polls;
        this.signal = signal;
        this.topic = topic;
        this.max = max;
        this.ttrMs = ttrMs;
        this.deadline = deadline;
        this.answer = answer;
    }

    boolean done() {
        return state.get() == DONE;
    }

    void attempt(boolean last) {
        attempt(last, false, false);
    }

    /**
     * Looks for jobs; answers when it found some or when this is the last look, else waits again. With {@code chain}
     * (the topic's safety re-check) a full reservation wakes the next waiter: there may be more. {@code woken}: a
     * hand-over woke this poll for its jobs.
     */
    private void attempt(boolean last, boolean chain, boolean woken) {
        // one look at a time
        if (!state.compareAndSet(WAITING, RUNNING)) {
            if (woken) {
                // answered or cancelled meanwhile: the jobs it was woken for need another waiter
                signal.fire(max);
            }
            return;
        }
        if (cancelled) {
            finish();
            return;
        }
        if (answer.revoked()) {
            // the caller's token was revoked: no look, and the answer refuses it
            finish();
            hand(List.of());
            return;
        }
        List<Job> jobs;
        long seen = signal.generation();
        try {
            jobs = polls.look(topic, ttrMs, max);
        } catch (RuntimeException e) {
            finish();
            answer.failed(e);
            return;
        }
        if (!jobs.isEmpty() || last || polls.stopped() || polls.now() >= deadline || cancelled) {
            finish();
            hand(jobs);
            if (chain && jobs.size() == max) {
                signal.wakeOldest(true);
            }
            return;
        }
        state.set(WAITING);
        if (!signal.park(this, seen)) {
            // a hand-over came while we looked: look again at once
            polls.run(() -> attempt(false));
        } else if (polls.now() >= deadline) {
            // the deadline task may have found us RUNNING and left: answer now
            attempt(true);
        }
    }

    private void hand(List<Job> jobs) {
        boolean received;
        try {
            received = !cancelled && answer.jobs(jobs);
        } catch (RuntimeException e) {
            received = false;
        }
        if (!received && !jobs.isEmpty()) {
            polls.giveBack(topic, jobs);
        }
    }

    private void finish() {
        state.set(DONE);
        signal.unpark(this);
        ScheduledFuture<?> task = deadlineTask;
        if (task != null) {
            task.cancel(false);
        }
        polls.leave(topic);
    }

    /** The client went away: a waiting poll ends now; one looking right now gives back what it reserves. */
    void cancel() {
        cancelled = true;
        if (state.compareAndSet(WAITING, RUNNING)) {
            finish();
        }
    }

    @Override
    public int wants() {
        return max;
    }

    @Override
    public boolean revoked() {
        return answer.revoked();
    }

    @Override
    public void wake(boolean chain) {
        polls.run(() -> attempt(false, chain, !chain));
    }
}
