package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.model.Job;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer's stream over pull topics: it reserves due jobs of its topics through the same looks as a long-poll, at
 * most its free credit (credit minus the jobs it holds), and writes each look's jobs to its {@link StreamOutlet}. It
 * waits on each topic's signal as a long-poll does; looks of one stream run one at a time on the poll workers. A job
 * stays held until the consumer ends it ({@link #ended}) or its ttr ran out (then the sweeper has it again); on
 * {@link #close} every held job goes back first in its ready list, not counted as a try.
 */
public final class Stream {
    /** A held job whose ttr ran out this long ago is dropped from held: the sweeper made it due again by then. */
    static final long EXPIRY_GRACE_MS = 2_000;

    private static final Logger log = LoggerFactory.getLogger(Stream.class);

    private final LongPolls polls;
    private final List<Watch> watches = new ArrayList<>();
    private final long ttrMs;
    private final StreamOutlet outlet;
    private final Consumer<Stream> closed;
    /** Held jobs by stored id, in the order they were written; guarded by {@code this}. */
    private final Map<String, Held> held = new LinkedHashMap<>();

    private volatile int credit;
    /** Credit promised to pumps' claims and not yet settled: counted as held meanwhile. Guarded by {@code this}. */
    private int claimed;

    private boolean ended;
    private final AtomicBoolean looking = new AtomicBoolean();
    private volatile boolean lookWanted;
    /** Where the next look starts among the topics, so that a busy first topic cannot starve the others. */
    private int firstTopic;

    Stream(LongPolls polls, List<String> topics, int credit, long ttrMs, StreamOutlet outlet, Consumer<Stream> closed) {
        this.polls = polls;
        this.ttrMs = ttrMs;
        this.credit = credit;
        this.outlet = outlet;
        this.closed = closed;
        topics.forEach(topic -> watches.add(new Watch(topic, polls.watch(topic))));
    }

    /** Looks at every topic once: the first look of a new stream. */
    void start() {
        lookSoon();
    }

    /** The job held under {@code storedId}, or null when the stream does not hold it. */
    public synchronized Job held(String storedId) {
        Held job = held.get(storedId);
        return job == null ? null : job.job;
    }

    /** Jobs held right now. */
    public synchronized int heldCount() {
        return held.size();
    }

    public int credit() {
        return credit;
    }

    /**
     * The consumer ended these held jobs (finished, released, buried), each as {@link #held} gave it: their credit is
     * free, and the stream looks again. A job written to the stream again meanwhile (a release made it due, and a look
     * here reserved it anew) stays held.
     */
    public void ended(Collection<Job> jobs) {
        boolean freed = false;
        synchronized (this) {
            for (Job job : jobs) {
                Held now = held.get(job.getId());
                if (now != null && now.job == job) {
                    held.remove(job.getId());
                    freed = true;
                }
            }
        }
        if (freed) {
            lookSoon();
        }
    }

    /** The consumer extended a held job's reservation to {@code ttrMs} from now. */
    public synchronized void touched(String storedId, long ttrMs) {
        Held job = held.get(storedId);
        if (job != null) {
            job.expiresAt = polls.now() + ttrMs + EXPIRY_GRACE_MS;
        }
    }

    /** Credit grows by {@code add}, up to {@code max}; answers the credit now. */
    public int addCredit(int add, int max) {
        int now;
        synchronized (this) {
            credit = (int) Math.min(max, (long) credit + add);
            now = credit;
        }
        lookSoon();
        return now;
    }

    /** Drops held jobs whose ttr ran out (the sweeper has them again); their credit is free. */
    public void expire() {
        long now = polls.now();
        boolean freed;
        synchronized (this) {
            freed = held.values().removeIf(job -> job.expiresAt <= now);
        }
        if (freed) {
            lookSoon();
        }
    }

    /** Ends the stream: it waits no more, and every job it holds goes back first in its ready list. Idempotent. */
    public void close() {
        List<Held> back;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            back = new ArrayList<>(held.values());
            held.clear();
        }
        watches.forEach(watch -> {
            watch.signal.unpark(watch);
            polls.unwatch(watch.topic);
        });
        giveBack(back.stream().map(job -> job.job).toList());
        closed.accept(this);
    }

    /** The gateway is stopping: the connection ends, and with it the stream. */
    void stopping() {
        outlet.stopping();
    }

    private synchronized boolean isEnded() {
        return ended;
    }

    private synchronized int freeCredit() {
        return ended ? 0 : credit - held.size() - claimed;
    }

    /** The stream's topics. */
    List<String> topics() {
        return watches.stream().map(watch -> watch.topic).toList();
    }

    long ttrMs() {
        return ttrMs;
    }

    /** Promises up to {@code max} of the free credit to a pump, which may reserve jobs for it directly. */
    synchronized int claim(int max) {
        int room = freeCredit();
        int promised = Math.max(0, Math.min(max, room));
        claimed += promised;
        return promised;
    }

    /**
     * The pump reserved {@code jobs} for a claim of {@code promised}: they are held and written as a look's jobs are,
     * and the rest of the promise is free credit again.
     */
    void claimed(int promised, List<Job> jobs) {
        hand(jobs, promised);
        if (promised > jobs.size() && watches.stream().anyMatch(watch -> watch.maybe)) {
            // a look meanwhile had less room because of the promise
            lookSoon();
        }
    }

    /** Asks for a look; one runs at a time, and one asked while another runs follows it. */
    private void lookSoon() {
        lookWanted = true;
        if (looking.compareAndSet(false, true)) {
            polls.run(this::runLooks);
        }
    }

    private void runLooks() {
        try {
            while (lookWanted && !isEnded()) {
                lookWanted = false;
                look();
            }
        } finally {
            looking.set(false);
        }
        if (lookWanted && !isEnded() && looking.compareAndSet(false, true)) {
            polls.run(this::runLooks);
        }
    }

    /**
     * One look: each topic that may hold jobs reserves up to the free credit; the jobs go out together. A topic that
     * gave less than asked waits on its signal again, one that filled the credit is looked at again when credit frees.
     */
    private void look() {
        List<Job> found = new ArrayList<>();
        int start = firstTopic++;
        for (int i = 0; i < watches.size(); i++) {
            Watch watch = watches.get(Math.floorMod(start + i, watches.size()));
            int free = freeCredit() - found.size();
            if (free <= 0) {
                break;
            }
            if (!watch.maybe) {
                continue;
            }
            watch.maybe = false;
            watch.signal.unpark(watch);
            long seen = watch.signal.generation();
            List<Job> jobs;
            try {
                jobs = polls.look(watch.topic, ttrMs, free);
            } catch (RuntimeException e) {
                log.warn("stream look at topic {} failed, trying again shortly: {}", watch.topic, e.toString());
                watch.maybe = true;
                polls.runLater(this::lookSoon, polls.safetyIntervalMs());
                continue;
            }
            found.addAll(jobs);
            if (jobs.size() == free) {
                watch.maybe = true;
                if (watch.chained) {
                    // the safety re-check woke this stream: other waiters of the topic may find more
                    watch.signal.wakeOldest(true);
                }
            } else if (!watch.signal.park(watch, seen)) {
                // a hand-over came while we looked
                watch.maybe = true;
                lookWanted = true;
            }
            watch.chained = false;
        }
        if (!found.isEmpty()) {
            hand(found);
        }
    }

    private void hand(List<Job> jobs) {
        hand(jobs, 0);
    }

    /** Holds and writes {@code jobs}; {@code promised} credit a pump's claim held for them is settled at once. */
    private void hand(List<Job> jobs, int promised) {
        long expiresAt = polls.now() + ttrMs + EXPIRY_GRACE_MS;
        boolean kept;
        synchronized (this) {
            // one step, so that no look sees the promise gone before the jobs are held
            claimed -= promised;
            kept = !ended;
            if (kept) {
                jobs.forEach(job -> held.put(job.getId(), new Held(job, expiresAt)));
            }
        }
        if (jobs.isEmpty()) {
            return;
        }
        if (!kept) {
            // closed while it looked: nobody holds these
            giveBack(jobs);
            return;
        }
        try {
            outlet.jobs(jobs);
        } catch (RuntimeException e) {
            // the connection is ending: its close gives the held jobs back
            log.debug("stream frame not written: {}", e.toString());
        }
    }

    private void giveBack(List<Job> jobs) {
        Map<String, List<Job>> byTopic = new LinkedHashMap<>();
        jobs.forEach(job ->
                byTopic.computeIfAbsent(job.getTopic(), t -> new ArrayList<>()).add(job));
        byTopic.forEach(polls::giveBack);
    }

    /** A job written to the consumer, and when its reservation (plus a grace) runs out by this node's clock. */
    private static final class Held {
        final Job job;
        long expiresAt;

        Held(Job job, long expiresAt) {
            this.job = job;
            this.expiresAt = expiresAt;
        }
    }

    /** The stream's place among the waiters of one topic. */
    private final class Watch implements TopicSignal.Sleeper {
        final String topic;
        final TopicSignal signal;
        /** Whether the topic may hold jobs for the stream: look there next time. */
        volatile boolean maybe = true;
        /** Whether the safety re-check (not a hand-over) woke it. */
        volatile boolean chained;

        Watch(String topic, TopicSignal signal) {
            this.topic = topic;
            this.signal = signal;
        }

        @Override
        public int wants() {
            return Math.max(0, freeCredit());
        }

        @Override
        public void wake(boolean chain) {
            maybe = true;
            chained = chain;
            lookSoon();
        }
    }
}
