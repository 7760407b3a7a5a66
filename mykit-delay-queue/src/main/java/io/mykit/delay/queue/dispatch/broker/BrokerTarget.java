package io.mykit.delay.queue.dispatch.broker;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.DeliveryTarget;
import io.mykit.delay.queue.dispatch.SendFailure;
import io.mykit.delay.queue.loop.LoopHeartbeat;
import io.mykit.delay.queue.loop.SupervisedThread;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A target that sends to a broker from its own sender threads, so a slow broker call holds a sender, not a bucket
 * timer. A free sender takes every hand-over queued at that moment (up to {@link #MAX_SEND_BATCH} jobs, from any
 * buckets) and sends them in one go, each hand-over's jobs in due order; the outcome is settled per bucket. Taking all
 * that waits is what keeps a broker that confirms slowly (a disk sync per commit) from falling behind a steady trickle
 * of small hand-overs. At most {@code backlog} jobs wait for senders; beyond that the timer handing them over waits for
 * room (back-pressure, as in a drain) as long as the broker keeps answering. When the broker has answered nothing for
 * {@code backlog-wait}, it is hung rather than slow: that hand-over counts as a failed send (retried with backoff, a
 * try counted) and so does every later one until a sender finishes a batch, so a hung broker never holds the bucket
 * timers that other topics and targets share.
 *
 * <p>A stop never waits on a broker for longer than the dispatch {@code stop-wait}: the senders finish what they hold
 * and what is queued until then, unless a batch finds the broker taking nothing; after the wait a sender settles
 * nothing more. Jobs left so stay in flight in Redis, and the sweeper (here after a restart, or on another node) hands
 * them over again.
 */
public abstract class BrokerTarget implements DeliveryTarget, AutoCloseable {
    /** Most jobs one sender sends in one go (one ActiveMQ transaction). */
    static final int MAX_SEND_BATCH = 1_000;
    /** Longest a stop waits for a broker client to close once the stop wait is over. */
    public static final long CLIENT_CLOSE_WAIT_MS = 2_000;

    protected final Logger log = LoggerFactory.getLogger(getClass());
    private final LinkedBlockingQueue<Handover> queue = new LinkedBlockingQueue<>();
    private final List<SupervisedThread> senders = new ArrayList<>();
    private final String name;
    private final Semaphore pending;
    private final int maxPending;
    private final long backlogWaitMs;
    private final long stopWaitNanos;
    private final DeliveryOutcomes outcomes;
    private volatile boolean running = true;
    private final AtomicBoolean halted = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** When a halted target's senders stop settling (System.nanoTime); written before {@code running} turns false. */
    private volatile long stopDeadline;
    /** A hand-over found the backlog full and the broker silent for the whole wait; no batch has finished since. */
    private volatile boolean stalled;
    /** When a sender last took a batch, finished one, or the broker answered a send. */
    private volatile long lastProgressNanos = System.nanoTime();

    /** Jobs one bucket timer handed over, and the back-pressure permits they hold. */
    private record Handover(int bucket, List<Job> jobs, int permits) {}

    protected BrokerTarget(String name, SenderSettings settings, DeliveryOutcomes outcomes) {
        this.name = name;
        this.maxPending = settings.backlog();
        this.pending = new Semaphore(maxPending);
        this.backlogWaitMs = settings.backlogWait().toMillis();
        this.stopWaitNanos = settings.stopWait().toNanos();
        this.outcomes = outcomes;
        for (int i = 0; i < settings.senders(); i++) {
            SupervisedThread sender =
                    new SupervisedThread("mykit-send-" + name + "-" + i, this::sendLoop, () -> running);
            senders.add(sender);
            sender.start();
        }
    }

    /**
     * Sends the jobs in order; fills {@code delivered} with those the broker confirmed, {@code failed} with the rest.
     */
    protected abstract void send(List<Job> jobs, List<Job> delivered, List<SendFailure> failed);

    /** The sender threads' states, for health. */
    public List<LoopHeartbeat> heartbeats() {
        return senders.stream().map(SupervisedThread::heartbeat).toList();
    }

    @Override
    public void deliver(int bucket, List<Job> jobs) {
        if (!running) {
            throw new IllegalStateException(getClass().getSimpleName() + " is closed");
        }
        int permits = Math.min(jobs.size(), maxPending);
        if (!reserveRoom(permits)) {
            String reason = name + " backlog full (" + maxPending + " jobs) and no answer from the broker for "
                    + backlogWaitMs + " ms";
            outcomes.settle(
                    name,
                    bucket,
                    List.of(),
                    jobs.stream().map(job -> new SendFailure(job, reason)).toList());
            return;
        }
        queue.add(new Handover(bucket, jobs, permits));
    }

    /**
     * Room for {@code permits} jobs: at once, or as soon as a sender frees some, while the broker answered within the
     * last backlog wait; never waits while the target is stalled.
     */
    private boolean reserveRoom(int permits) {
        if (pending.tryAcquire(permits)) {
            return true;
        }
        try {
            long quietMs;
            while (!stalled && (quietMs = (System.nanoTime() - lastProgressNanos) / 1_000_000) < backlogWaitMs) {
                if (pending.tryAcquire(permits, backlogWaitMs - quietMs, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (!stalled) {
            stalled = true;
            log.warn(
                    "{} backlog full ({} jobs) and no answer from the broker for {} ms: hand-overs fail (retried"
                            + " with backoff) until a batch finishes",
                    name,
                    maxPending,
                    backlogWaitMs);
        }
        return false;
    }

    /** The broker answered (a send, a commit, a callback): the target is slow at worst, not hung. */
    protected final void progressed() {
        lastProgressNanos = System.nanoTime();
    }

    private void sendLoop() {
        List<Handover> group = new ArrayList<>();
        while ((running || !queue.isEmpty()) && !stopWaitOver()) {
            try {
                Handover first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                progressed();
                group.add(first);
                int jobs = first.jobs().size();
                Handover next;
                while (jobs < MAX_SEND_BATCH && (next = queue.poll()) != null) {
                    group.add(next);
                    jobs += next.jobs().size();
                }
                if (!sendAndSettle(group, jobs) && !running) {
                    // stopping, and the broker took nothing: what is queued stays in flight instead of waiting too
                    return;
                }
            } catch (Throwable e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    return;
                }
                // a sender never dies: the jobs of this group stay in flight and the sweeper returns them
                log.warn("sending {} hand-overs failed unexpectedly: {}", group.size(), e.toString());
            } finally {
                group.forEach(handover -> pending.release(handover.permits()));
                if (!group.isEmpty()) {
                    progressed();
                }
                if (!group.isEmpty() && stalled && running) {
                    stalled = false;
                    log.info("{} sent a batch again: hand-overs wait for room again", name);
                }
                group.clear();
            }
        }
    }

    /** Sends the hand-overs and settles each bucket's outcome; true when the broker confirmed any job. */
    private boolean sendAndSettle(List<Handover> taken, int jobCount) {
        // a node paused or cut off since the pump must not send what a newer owner of the bucket now answers for
        Set<Integer> outranked =
                outcomes.outranked(taken.stream().map(Handover::bucket).toList());
        List<Handover> group = taken;
        if (!outranked.isEmpty()) {
            log.warn("{}: buckets {} have a newer owner; their jobs stay in flight for it", name, outranked);
            group = taken.stream()
                    .filter(handover -> !outranked.contains(handover.bucket()))
                    .toList();
            jobCount =
                    group.stream().mapToInt(handover -> handover.jobs().size()).sum();
        }
        List<Job> all = new ArrayList<>(jobCount);
        group.forEach(handover -> all.addAll(handover.jobs()));
        List<Job> delivered = new ArrayList<>(jobCount);
        List<SendFailure> failed = new ArrayList<>();
        try {
            send(all, delivered, failed);
        } catch (RuntimeException e) {
            // whatever was not confirmed counts as failed
            Set<Job> settled = identitySet(delivered);
            failed.forEach(failure -> settled.add(failure.job()));
            all.stream()
                    .filter(job -> !settled.contains(job))
                    .forEach(job -> failed.add(new SendFailure(job, e.toString())));
        }
        if (stopWaitOver()) {
            // the journal writer may be closed by now: leave the jobs in flight rather than settle half of it
            log.info(
                    "{}: the stop wait is over; {} jobs of this batch stay in flight and are handed over again",
                    name,
                    all.size());
            return false;
        }
        Set<Job> confirmed = identitySet(delivered);
        IdentityHashMap<Job, SendFailure> failures = new IdentityHashMap<>();
        failed.forEach(failure -> failures.put(failure.job(), failure));
        for (Handover handover : group) {
            List<Job> bucketDelivered = new ArrayList<>(handover.jobs().size());
            List<SendFailure> bucketFailed = new ArrayList<>();
            for (Job job : handover.jobs()) {
                if (confirmed.contains(job)) {
                    bucketDelivered.add(job);
                } else {
                    bucketFailed.add(failures.getOrDefault(job, new SendFailure(job, "not confirmed by the broker")));
                }
            }
            try {
                outcomes.settle(name, handover.bucket(), bucketDelivered, bucketFailed);
            } catch (Throwable e) {
                log.warn(
                        "settling {} jobs of bucket {} failed; the sweeper returns them: {}",
                        handover.jobs().size(),
                        handover.bucket(),
                        e.toString());
            }
        }
        return !delivered.isEmpty();
    }

    private static Set<Job> identitySet(List<Job> jobs) {
        Set<Job> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(jobs);
        return set;
    }

    /**
     * Stops taking hand-overs; the senders go on with what they hold and what is queued until the stop wait is over.
     * Halting every target before closing any lets their stop waits run side by side; idempotent.
     */
    public void halt() {
        if (halted.compareAndSet(false, true)) {
            stopDeadline = System.nanoTime() + stopWaitNanos;
            running = false;
        }
    }

    private boolean stopWaitOver() {
        return !running && System.nanoTime() - stopDeadline >= 0;
    }

    /**
     * Halts, waits for the senders until the stop wait is over, then closes the broker client, which also fails a call
     * still blocked inside it. A sender busy after the wait is left behind (a daemon thread that settles nothing more);
     * the caller bounds the client's close ({@link #CLIENT_CLOSE_WAIT_MS}). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        halt();
        List<Thread> busy = new ArrayList<>();
        for (Thread sender : senders) {
            long leftMs = (stopDeadline - System.nanoTime()) / 1_000_000;
            try {
                if (leftMs > 0) {
                    sender.join(leftMs);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (sender.isAlive()) {
                busy.add(sender);
            }
        }
        if (!busy.isEmpty()) {
            log.warn(
                    "{}: {} senders still busy after the stop wait ({} ms); the jobs they hold stay in flight and are"
                            + " handed over again after the dispatch timeout",
                    name,
                    busy.size(),
                    stopWaitNanos / 1_000_000);
        }
        closeClient();
        busy.forEach(Thread::interrupt);
    }

    /** Releases the broker client; must not wait for anything a sender blocked inside the client holds. */
    protected abstract void closeClient();

    /** Throws unless the broker answers now (for the health endpoint; may block up to about {@code timeoutMs}). */
    public abstract void probe(long timeoutMs) throws Exception;
}
