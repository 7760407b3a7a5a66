package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.error.TooManyPollsException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.Delivery;
import java.time.Clock;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where long-polls wait, per topic and costing Redis nothing, until a hand-over to their topic wakes them. A poll waits
 * either on its own thread ({@link #reserve}) or as a registered {@link AsyncPoll} that the poll workers answer
 * ({@link #reserveAsync}). The workers also run the safety re-check every {@code safetyIntervalMs}, for a wake-up lost
 * between nodes: one read of the {@link HandOverCounts}, then one look (its oldest poll) per waiting topic that another
 * node handed jobs to since the last re-check; idle topics cost Redis nothing. At most {@code maxPolls} polls run at
 * once; one more is refused ({@link TooManyPollsException}). The workers' queue is bounded by them: a poll has at most
 * one deadline task and one look queued.
 */
final class LongPolls implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LongPolls.class);

    private final Delivery store;
    private final HotBuckets hot;
    private final Clock clock;
    private final long safetyIntervalMs;
    private final TopicSignals signals;
    private final HandOverCounts handOvers;
    private final AtomicLong safetyChecks = new AtomicLong();
    /** The hand-over counts read by the last re-check; only the re-check's task touches it. */
    private Map<Integer, Long> seenHandOvers = Map.of();

    private final ScheduledThreadPoolExecutor workers;
    private volatile boolean stopped;
    private volatile ReadyListener handedOver = ReadyListener.NONE;

    /** {@code pollWorkers} threads run the looks of async polls, however many of them wait. */
    LongPolls(
            Delivery store,
            HotBuckets hot,
            Clock clock,
            long safetyIntervalMs,
            int pollWorkers,
            int maxPolls,
            HandOverCounts handOvers) {
        this.store = store;
        this.handOvers = handOvers;
        this.hot = hot;
        this.clock = clock;
        this.safetyIntervalMs = safetyIntervalMs;
        this.signals = new TopicSignals(maxPolls);
        AtomicInteger numbers = new AtomicInteger();
        this.workers = new ScheduledThreadPoolExecutor(pollWorkers, task -> {
            Thread thread = new Thread(task, "mykit-long-poll-" + numbers.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        // a finished poll's deadline task is dropped at once instead of lingering until its time
        this.workers.setRemoveOnCancelPolicy(true);
        this.workers.scheduleWithFixedDelay(
                this::safetyCheck, safetyIntervalMs, safetyIntervalMs, TimeUnit.MILLISECONDS);
    }

    /**
     * The safety re-check, for a wake-up lost between nodes (pub/sub delivers at most once): topics with a waiting poll
     * that were handed jobs since the last re-check look once (their oldest poll); and the hot buckets of topics nobody
     * used lately are dropped.
     */
    private void safetyCheck() {
        try {
            lookWhereHandedOver();
            hot.forgetIdle();
        } catch (Throwable e) {
            // the schedule would stop for good on a throw, an Error included, or one thrown by the log
            try {
                log.warn("long-poll safety re-check failed: {}", e.toString());
            } catch (Throwable again) {
                // the next re-check tries again
            }
        } finally {
            safetyChecks.incrementAndGet();
        }
    }

    /** One read of the hand-over counts; a look only for waiting topics whose slot counted a hand-over since. */
    private void lookWhereHandedOver() {
        if (signals.topics() == 0) {
            return;
        }
        Map<Integer, Long> counts = handOvers.read();
        Map<Integer, Long> before = seenHandOvers;
        seenHandOvers = counts;
        Set<Integer> changed = new HashSet<>();
        counts.forEach((slot, count) -> {
            if (!count.equals(before.get(slot))) {
                changed.add(slot);
            }
        });
        if (!changed.isEmpty()) {
            signals.wakeOldest(topic -> changed.contains(HandOverCounts.slotOf(topic)));
        }
    }

    /** Safety re-checks run so far. */
    long safetyChecks() {
        return safetyChecks.get();
    }

    /** Counts this node's hand-overs to {@code topics} where the other nodes' re-checks read them. */
    void countHandOvers(Collection<String> topics) {
        handOvers.count(topics);
    }

    /** Every topic with a waiting poll looks once, oldest poll first: wake-ups may have been lost meanwhile. */
    void lookAgain() {
        signals.wakeOldest(topic -> true);
    }

    /** Told of every hand-over to a topic, so long-polls waiting on other nodes can be woken. */
    void onHandedOver(ReadyListener listener) {
        this.handedOver = listener;
    }

    /** Jobs of {@code topic} became ready on another node: wake as many local long-polls as they need. */
    void wakeTopic(String topic, int jobs) {
        signals.fire(topic, jobs);
    }

    /** This node made {@code jobs} jobs of {@code topic} ready: wake its long-polls here, and tell the listener. */
    void ready(String topic, int jobs) {
        wakeTopic(topic, jobs);
        handedOver.readied(topic, jobs);
    }

    /** Reserves up to {@code max} ready jobs of the topic, waiting on the caller's thread up to {@code timeoutMs}. */
    List<Job> reserve(String topic, int max, long ttrMs, long timeoutMs) throws InterruptedException {
        long end = clock.millis() + timeoutMs;
        TopicSignal signal = signals.enter(topic);
        try {
            while (true) {
                // read before looking, so a hand-over between the look and the wait is not missed
                long seen = signal.generation();
                List<Job> jobs = hot.reserve(topic, ttrMs, max);
                long left = end - clock.millis();
                if (!jobs.isEmpty() || left <= 0 || stopped) {
                    return jobs;
                }
                signal.awaitChange(seen, Math.min(left, safetyIntervalMs), max);
            }
        } finally {
            signals.leave(topic);
        }
    }

    /** {@link #reserve} as a registered poll: looks once at once, then waits without a thread. */
    PendingPoll reserveAsync(String topic, int max, long ttrMs, long timeoutMs, PollAnswer answer) {
        TopicSignal signal = signals.enter(topic);
        AsyncPoll poll = new AsyncPoll(this, signal, topic, max, ttrMs, clock.millis() + timeoutMs, answer);
        poll.attempt(false);
        if (!poll.done()) {
            poll.deadlineTask = workers.schedule(() -> poll.attempt(true), timeoutMs, TimeUnit.MILLISECONDS);
        }
        return poll::cancel;
    }

    /** A stream waits on the topic's signal from now on, until {@link #unwatch}. */
    TopicSignal watch(String topic) {
        return signals.watch(topic);
    }

    void unwatch(String topic) {
        signals.unwatch(topic);
    }

    /** Runs {@code task} on a worker after {@code delayMs}; nothing once the workers stopped. */
    void runLater(Runnable task, long delayMs) {
        try {
            workers.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the gateway is stopping
        }
    }

    long safetyIntervalMs() {
        return safetyIntervalMs;
    }

    /** A look for an async poll: reserves up to {@code max} ready jobs of the topic. */
    List<Job> look(String topic, long ttrMs, int max) {
        return hot.reserve(topic, ttrMs, max);
    }

    /** An async poll is done with its topic. */
    void leave(String topic) {
        signals.leave(topic);
    }

    long now() {
        return clock.millis();
    }

    boolean stopped() {
        return stopped;
    }

    /** Runs a poll's look on a worker; once the workers stopped, the container's timeout answers the poll. */
    void run(Runnable look) {
        try {
            workers.execute(look);
        } catch (RejectedExecutionException e) {
            // the gateway is stopping: a hand-over must not fail because a poll cannot look any more
        }
    }

    /** Jobs reserved for a poll nobody received go back first in their ready list, not counted as a try. */
    void giveBack(String topic, List<Job> jobs) {
        int back = 0;
        try {
            for (Job job : jobs) {
                if (store.unreserve(job)) {
                    back++;
                }
            }
        } catch (RuntimeException e) {
            // still reserved: the sweeper returns them when their ttr runs out
            log.warn(
                    "could not give back {} jobs of topic {} reserved for a poll nobody received: {}",
                    jobs.size() - back,
                    topic,
                    e.getMessage());
        }
        if (back > 0) {
            ready(topic, back);
        }
    }

    /** Long-polls waiting without a thread right now. */
    int waitingPolls() {
        return signals.asyncWaiters();
    }

    /** Topics with a long-poll waiting right now. */
    int waitingTopics() {
        return signals.topics();
    }

    /** Long-polls whose caller lost its right to an answer (a revoked token) end now, without a look. */
    void endRevoked() {
        signals.wakeRevoked();
    }

    /** The gateway is stopping: long-polls answer with what they have now. */
    void stopWaiting() {
        stopped = true;
        signals.wakeAll();
    }

    /** Stops the poll workers (after {@link #stopWaiting} answered the waiting polls). */
    @Override
    public void close() {
        workers.shutdownNow();
    }
}
