package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.error.TooManyPollsException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.metrics.QueueMetrics;
import io.mykit.delay.queue.store.Delivery;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in HTTP pull queue: due jobs go to their topic's ready list; pullers reserve one for a ttr and finish it,
 * or the sweeper makes it due again when the ttr runs out. A long-poll looks once when it arrives, then waits per
 * topic, costing Redis nothing, until a hand-over to its topic wakes it: one on this node directly, one on another node
 * through the wake bus ({@link #wakeTopic}). A slow safety re-check ({@code safetyIntervalMs}, one look per topic, not
 * per poll) bounds what a lost cross-node wake-up costs. A long-poll waits either on its own thread ({@link #reserve})
 * or as a registered poll answered by the poll workers ({@link #reserveAsync}, what the HTTP routes uses: a waiting
 * poll then holds no web server thread). At most {@code maxPolls} polls run at once; one more is refused
 * ({@link TooManyPollsException}). The workers' queue is bounded by them: a poll has at most one deadline task and one
 * look queued.
 *
 * <pre>
 *  async poll:  WAITING --look (first, wake-up, safety re-check, deadline)--> RUNNING --jobs / last look--> DONE
 *                  ^                                                          |
 *                  +------------------------- nothing yet ---------------------+
 *               cancel (client gone): WAITING -> DONE at once; RUNNING -> its jobs are given back
 * </pre>
 */
public class PullTarget implements DeliveryTarget, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PullTarget.class);
    public static final String NAME = "pull";

    private final Delivery store;
    private final StateChangeWriter states;
    private final Clock clock;
    private final long safetyIntervalMs;
    private final int maxPolls;
    private final AtomicInteger polls = new AtomicInteger();
    private final Map<String, Signal> signals = new ConcurrentHashMap<>();
    /**
     * Buckets this node handed ready jobs of a topic to: tried first, one round trip each, instead of a full scan. A
     * bucket leaves once a reservation there finds or leaves its list empty, a topic once unused for
     * {@link #HOT_IDLE_MS} (nobody pulls it).
     */
    private final Map<String, HotBuckets> hotBuckets = new ConcurrentHashMap<>();
    /** A topic's hot buckets are forgotten after this long without a hand-over or a look there. */
    static final long HOT_IDLE_MS = 60_000;

    public static final int DEFAULT_POLL_WORKERS = 2;
    public static final int DEFAULT_MAX_POLLS = 4_096;
    private final ScheduledThreadPoolExecutor workers;
    private volatile boolean stopped;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;
    private volatile BiConsumer<String, Integer> handedOver = (topic, jobs) -> {};

    public PullTarget(Delivery store, StateChangeWriter states, Clock clock, long safetyIntervalMs) {
        this(store, states, clock, safetyIntervalMs, DEFAULT_POLL_WORKERS, DEFAULT_MAX_POLLS);
    }

    /**
     * {@code pollWorkers} threads run the reservations of waiting long-polls, however many of them wait; at most
     * {@code maxPolls} polls run at once.
     */
    public PullTarget(
            Delivery store,
            StateChangeWriter states,
            Clock clock,
            long safetyIntervalMs,
            int pollWorkers,
            int maxPolls) {
        this.store = store;
        this.states = states;
        this.clock = clock;
        this.safetyIntervalMs = safetyIntervalMs;
        this.maxPolls = maxPolls;
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
     * The safety re-check: one look per topic with a waiting poll (its oldest), for a wake-up lost between nodes
     * (pub/sub delivers at most once); and the hot buckets of topics nobody used lately are dropped.
     */
    private void safetyCheck() {
        try {
            lookAgain();
            long idleSince = clock.millis() - HOT_IDLE_MS;
            hotBuckets.values().removeIf(hot -> hot.usedAt < idleSince);
        } catch (RuntimeException e) {
            // the schedule would stop for good on a throw
            log.warn("long-poll safety re-check failed: {}", e.toString());
        }
    }

    /** Every topic with a waiting poll looks once, oldest poll first: wake-ups may have been lost meanwhile. */
    public void lookAgain() {
        signals.values().forEach(signal -> signal.wakeOldest(true));
    }

    /** Where deliveries to ready lists are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** Told of every hand-over to a topic, so long-polls waiting on other nodes can be woken. */
    public void onHandedOver(BiConsumer<String, Integer> listener) {
        this.handedOver = listener;
    }

    /** Jobs of {@code topic} became ready on another node: wake as many local long-polls as they need. */
    public void wakeTopic(String topic, int jobs) {
        Signal signal = signals.get(topic);
        if (signal != null) {
            signal.fire(jobs);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void deliver(int bucket, List<Job> jobs) {
        byTopic(jobs).forEach((topic, ids) -> store.toReady(bucket, topic, ids));
        readied(bucket, jobs);
    }

    /**
     * The rest of a hand-over once the jobs are in their ready lists (by {@link #deliver}, or by a pump that put them
     * there itself, {@link Delivery#pumpDueToReady}): journals Ready, wakes the topics' long-polls, reports them.
     */
    public void readied(int bucket, List<Job> jobs) {
        long now = clock.millis();
        List<StateChange> changes = new ArrayList<>(jobs.size());
        byTopic(jobs).forEach((topic, ids) -> {
            hotBuckets.computeIfAbsent(topic, t -> new HotBuckets()).add(bucket, now);
            ids.forEach(id -> changes.add(StateChange.of(id, JobStatus.Ready, now)));
            wakeTopic(topic, ids.size());
            handedOver.accept(topic, ids.size());
        });
        states.submitAll(changes);
        // for a pull topic, delivered means in its ready list: the puller's finish is the consumer's business
        jobs.forEach(job -> metrics.delivered(NAME, job));
    }

    private static Map<String, List<String>> byTopic(List<Job> jobs) {
        Map<String, List<String>> idsByTopic = new LinkedHashMap<>();
        jobs.forEach(job -> idsByTopic
                .computeIfAbsent(job.getTopic(), t -> new ArrayList<>())
                .add(job.getId()));
        return idsByTopic;
    }

    /**
     * Reserves up to {@code max} ready jobs of the topic for {@code ttrMs}, waiting up to {@code timeoutMs} for one.
     */
    public List<Job> reserve(String topic, int max, long ttrMs, long timeoutMs) throws InterruptedException {
        long end = clock.millis() + timeoutMs;
        Signal signal = enter(topic);
        try {
            while (true) {
                // read before looking, so a hand-over between the look and the wait is not missed
                long seen = signal.generation();
                List<Job> jobs = reserveHotFirst(topic, ttrMs, max);
                long left = end - clock.millis();
                if (!jobs.isEmpty() || left <= 0 || stopped) {
                    return jobs;
                }
                signal.awaitChange(seen, Math.min(left, safetyIntervalMs), max);
            }
        } finally {
            leave(topic);
        }
    }

    /**
     * How a waiting long-poll is answered, from one of the poll workers (or the caller's thread when no wait is
     * needed).
     */
    public interface PollAnswer {
        /** Hands the reserved jobs (none at the deadline) to the client; false when it is gone. */
        boolean jobs(List<Job> jobs);

        /** The reservation failed (a store is down). */
        void failed(RuntimeException e);
    }

    /** A long-poll waiting without a thread; {@link #cancel} when its client went away. */
    public interface PendingPoll {
        void cancel();
    }

    /**
     * {@link #reserve} without holding the caller's thread: looks once at once, then waits as a registered poll that a
     * hand-over, the topic's safety re-check or the deadline answers. Jobs reserved for a poll whose client went away
     * are given back, first in their ready list and not counted as a try.
     */
    public PendingPoll reserveAsync(String topic, int max, long ttrMs, long timeoutMs, PollAnswer answer) {
        AsyncPoll poll = new AsyncPoll(topic, max, ttrMs, clock.millis() + timeoutMs, answer);
        poll.signal = enter(topic);
        poll.attempt(false);
        if (poll.state.get() != AsyncPoll.DONE) {
            poll.deadlineTask = workers.schedule(() -> poll.attempt(true), timeoutMs, TimeUnit.MILLISECONDS);
        }
        return poll::cancel;
    }

    /** Long-polls waiting without a thread right now. */
    public int waitingPolls() {
        return signals.values().stream().mapToInt(Signal::asyncWaiters).sum();
    }

    private final class AsyncPoll implements Signal.Sleeper {
        static final int WAITING = 0;
        static final int RUNNING = 1;
        static final int DONE = 2;

        final String topic;
        final int max;
        final long ttrMs;
        final long deadline;
        final PollAnswer answer;
        /** Starts WAITING: nothing else knows the poll before its first look, which wins it like any later one. */
        final AtomicInteger state = new AtomicInteger(WAITING);

        Signal signal;
        volatile boolean cancelled;
        volatile ScheduledFuture<?> deadlineTask;

        AsyncPoll(String topic, int max, long ttrMs, long deadline, PollAnswer answer) {
            this.topic = topic;
            this.max = max;
            this.ttrMs = ttrMs;
            this.deadline = deadline;
            this.answer = answer;
        }

        void attempt(boolean last) {
            attempt(last, false, false);
        }

        /**
         * Looks for jobs; answers when it found some or when this is the last look, else waits again. With
         * {@code chain} (the topic's safety re-check) a full reservation wakes the next waiter: there may be more.
         * {@code woken}: a hand-over woke this poll for its jobs.
         */
        void attempt(boolean last, boolean chain, boolean woken) {
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
            List<Job> jobs;
            long seen = signal.generation();
            try {
                jobs = reserveHotFirst(topic, ttrMs, max);
            } catch (RuntimeException e) {
                finish();
                answer.failed(e);
                return;
            }
            if (!jobs.isEmpty() || last || stopped || clock.millis() >= deadline || cancelled) {
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
                run(() -> attempt(false));
            } else if (clock.millis() >= deadline) {
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
                giveBack(jobs);
            }
        }

        private void giveBack(List<Job> jobs) {
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
                wakeTopic(topic, back);
                handedOver.accept(topic, back);
            }
        }

        private void finish() {
            state.set(DONE);
            signal.unpark(this);
            ScheduledFuture<?> task = deadlineTask;
            if (task != null) {
                task.cancel(false);
            }
            leave(topic);
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
        public void wake(boolean chain) {
            run(() -> attempt(false, chain, !chain));
        }
    }

    /**
     * The topic's signal, counted as used by this caller; a signal lives only while someone waits on its topic. A poll
     * beyond {@code maxPolls} running at once is refused.
     */
    private Signal enter(String topic) {
        if (polls.incrementAndGet() > maxPolls) {
            polls.decrementAndGet();
            throw new TooManyPollsException(
                    "too many long-polls waiting (pull.max-waiting-polls = " + maxPolls + "): try again in a moment");
        }
        return signals.compute(topic, (t, signal) -> {
            Signal used = signal == null ? new Signal() : signal;
            used.users++;
            return used;
        });
    }

    private void leave(String topic) {
        signals.computeIfPresent(topic, (t, signal) -> --signal.users == 0 ? null : signal);
        polls.decrementAndGet();
    }

    /** Topics with a long-poll waiting right now. */
    public int waitingTopics() {
        return signals.size();
    }

    /** Topics whose hot buckets this node remembers. */
    public int hotTopics() {
        return hotBuckets.size();
    }

    /** The gateway is stopping: long-polls answer with what they have now instead of holding the web server's drain. */
    public void stopWaiting() {
        stopped = true;
        signals.values().forEach(Signal::wakeAll);
    }

    /** Runs a poll's look on a worker; once the workers stopped, the container's timeout answers the poll. */
    private void run(Runnable look) {
        try {
            workers.execute(look);
        } catch (RejectedExecutionException e) {
            // the gateway is stopping: a hand-over must not fail because a poll cannot look any more
        }
    }

    /** Stops the poll workers (after {@link #stopWaiting} answered the waiting polls). */
    @Override
    public void close() {
        workers.shutdownNow();
    }

    private List<Job> reserveHotFirst(String topic, long ttrMs, int max) {
        List<Job> reserved = new ArrayList<>();
        HotBuckets hot = hotBuckets.get(topic);
        if (hot != null) {
            hot.usedAt = clock.millis();
            for (Integer bucket : hot.buckets) {
                Delivery.Reservation taken = store.reserveFrom(bucket, topic, ttrMs, max - reserved.size());
                reserved.addAll(taken.jobs());
                if (taken.drained() || reserved.size() < max) {
                    // its list is empty now: the next look does not spend a round trip on it
                    hot.buckets.remove(bucket);
                }
                if (reserved.size() == max) {
                    return reserved;
                }
            }
            // a topic nobody delivers to any more keeps no entry (a hint only: a lost one costs one full scan)
            hotBuckets.computeIfPresent(topic, (t, left) -> left.buckets.isEmpty() ? null : left);
            if (!reserved.isEmpty()) {
                return reserved;
            }
        }
        // jobs made ready by another node, a restart or a lost hint: look at every bucket
        return store.reserve(topic, ttrMs, max);
    }

    /** The buckets of one topic a look tries first, and when they were last used. */
    private static final class HotBuckets {
        final Set<Integer> buckets = ConcurrentHashMap.newKeySet();
        volatile long usedAt;

        HotBuckets add(int bucket, long now) {
            buckets.add(bucket);
            usedAt = now;
            return this;
        }
    }

    /**
     * Where long-polls of one topic wait. A hand-over wakes waiters oldest first, only as many as its jobs need (each
     * asked for up to {@code wants}); waking all of them sent every puller to Redis for each hand-over and cost more
     * gateway and Redis CPU than the deliveries in the bench. A thread waiter not woken looks again after the safety
     * interval; an async one is looked for by the topic's safety re-check, oldest first.
     */
    private static final class Signal {
        /** A waiting long-poll: a parked thread or an async poll. */
        interface Sleeper {
            int wants();

            /** Makes it look again; {@code chain}: it came from the safety re-check, not from a hand-over. */
            void wake(boolean chain);
        }

        /** Long-polls using this signal; changed only inside the signal map's compute calls. */
        private int users;

        private long generation;
        private final Deque<Sleeper> waiters = new ArrayDeque<>();

        private static final class Waiter implements Sleeper {
            final Thread thread = Thread.currentThread();
            final int wants;
            volatile boolean woken;

            Waiter(int wants) {
                this.wants = wants;
            }

            @Override
            public int wants() {
                return wants;
            }

            @Override
            public void wake(boolean chain) {
                woken = true;
                LockSupport.unpark(thread);
            }
        }

        synchronized long generation() {
            return generation;
        }

        void fire(int jobs) {
            List<Sleeper> woken = new ArrayList<>();
            synchronized (this) {
                generation++;
                int left = jobs;
                while (left > 0 && !waiters.isEmpty()) {
                    Sleeper waiter = waiters.pollFirst();
                    woken.add(waiter);
                    left -= waiter.wants();
                }
            }
            woken.forEach(waiter -> waiter.wake(false));
        }

        /** The safety re-check: the oldest async poll looks again (thread waiters look on their own). */
        void wakeOldest(boolean chain) {
            Sleeper oldest = null;
            synchronized (this) {
                for (Sleeper waiter : waiters) {
                    if (!(waiter instanceof Waiter)) {
                        oldest = waiter;
                        break;
                    }
                }
                if (oldest != null) {
                    waiters.remove(oldest);
                }
            }
            if (oldest != null) {
                oldest.wake(chain);
            }
        }

        void wakeAll() {
            List<Sleeper> woken;
            synchronized (this) {
                generation++;
                woken = new ArrayList<>(waiters);
                waiters.clear();
            }
            woken.forEach(waiter -> waiter.wake(false));
        }

        /** Registers an async poll unless a hand-over came since {@code seen} was read; false then. */
        synchronized boolean park(Sleeper poll, long seen) {
            if (generation != seen) {
                return false;
            }
            waiters.addLast(poll);
            return true;
        }

        synchronized void unpark(Sleeper poll) {
            waiters.remove(poll);
        }

        synchronized int asyncWaiters() {
            return (int) waiters.stream()
                    .filter(waiter -> !(waiter instanceof Waiter))
                    .count();
        }

        /** Waits up to {@code timeoutMs} for a hand-over, unless one came since {@code seen} was read. */
        void awaitChange(long seen, long timeoutMs, int wants) throws InterruptedException {
            Waiter waiter = new Waiter(wants);
            synchronized (this) {
                if (generation != seen) {
                    return;
                }
                waiters.addLast(waiter);
            }
            try {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
                long left;
                while (!waiter.woken && (left = deadline - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(this, left);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            } finally {
                synchronized (this) {
                    waiters.remove(waiter);
                }
            }
        }
    }
}
