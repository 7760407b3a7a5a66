package io.mykit.delay.queue.loop;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A named background thread that runs one pass, sleeps until the time the pass asked for, and can be woken earlier. Any
 * error in a pass is logged and retried with backoff; anything that escapes even that (an error thrown while the first
 * is logged, with the heap full) starts the passes again: the loop never dies while it should run. Its
 * {@link #heartbeat} tells health when a pass began and ended and when the next is due.
 */
public abstract class WakeableLoop {
    private static final long MIN_BACKOFF_MS = 50;
    private static final long MAX_BACKOFF_MS = 5_000;

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String name;
    protected final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private long wakeAt = Long.MAX_VALUE;
    private volatile boolean running;
    private volatile long failures;
    private volatile long restarts;
    private volatile long passStartedAt = -1;
    private volatile long lastPassEndedAt = -1;
    private volatile long nextPassAt = -1;
    private volatile Runnable beforeNextPass;
    private volatile Thread thread;

    protected WakeableLoop(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
    }

    /** Runs one pass; returns the epoch millis at which the next pass is wanted. */
    protected abstract long runOnce() throws Exception;

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        nextPassAt = -1;
        thread = new Thread(this::supervise, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Asks the loop to end after its current pass, without waiting for it ({@link #stop} waits). */
    public void halt() {
        running = false;
        wakeBy(0);
    }

    public synchronized void stop() {
        halt();
        if (thread != null) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    public boolean isRunning() {
        return running;
    }

    /** Passes that threw so far (for tests and metrics). */
    public long failures() {
        return failures;
    }

    /** The loop's name, also its thread's. */
    public String name() {
        return name;
    }

    /** When its passes ran and are due, whether its thread lives, read at once by health. */
    public LoopHeartbeat heartbeat() {
        Thread current = thread;
        long passAt = passStartedAt;
        return new LoopHeartbeat(
                name,
                running,
                current != null && current.isAlive(),
                passAt >= 0 && progressing() ? clock.millis() : passAt,
                lastPassEndedAt,
                nextPassAt,
                failures,
                restarts);
    }

    /** A long pass says it moves on: health measures a pass from its start or its last progress. */
    protected void progressed() {
        if (passStartedAt >= 0) {
            passStartedAt = clock.millis();
        }
    }

    /** True while the pass waits on work that reports its progress elsewhere (a restore has its own health). */
    protected boolean progressing() {
        return false;
    }

    /**
     * Runs {@code hook} on the loop's thread at the start of its next pass, before the pass itself: tests. A subclass
     * that its package's tests drive overrides it to open it to them.
     */
    protected void beforeNextPass(Runnable hook) {
        beforeNextPass = hook;
        wakeBy(0);
    }

    /** Makes the loop run again no later than {@code time}. */
    public void wakeBy(long time) {
        lock.lock();
        try {
            if (time < wakeAt) {
                wakeAt = time;
                woken.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Runs the passes again whenever something escapes them, for as long as the loop should run. */
    private void supervise() {
        while (running) {
            try {
                loop();
            } catch (Throwable escaped) {
                // nothing allocated before the counter: the heap may be full
                restarts++;
                nextPassAt = clock.millis() + MAX_BACKOFF_MS;
                passStartedAt = -1;
                pauseAfterEscape(escaped);
            }
        }
    }

    private void pauseAfterEscape(Throwable escaped) {
        try {
            log.error(
                    "{} restarted its passes after {} escaped them",
                    name,
                    escaped.getClass().getName());
            sleepUntil(clock.millis() + MAX_BACKOFF_MS);
        } catch (Throwable again) {
            // the log or the wait failed as well: the next pass is the next try
        }
    }

    private void loop() {
        long backoff = MIN_BACKOFF_MS;
        while (running) {
            long next;
            passStartedAt = clock.millis();
            try {
                Runnable hook = beforeNextPass;
                if (hook != null) {
                    beforeNextPass = null;
                    hook.run();
                }
                next = runOnce();
                backoff = MIN_BACKOFF_MS;
            } catch (Throwable e) {
                failures++;
                log.warn("{} pass failed, retrying in {} ms: {}", name, backoff, e.toString());
                next = clock.millis() + backoff;
                backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            }
            // the next pass's time before "between passes", so health never pairs the latter with a stale time
            nextPassAt = next;
            lastPassEndedAt = clock.millis();
            passStartedAt = -1;
            sleepUntil(next);
        }
    }

    private void sleepUntil(long time) {
        lock.lock();
        try {
            wakeAt = Math.min(wakeAt, time);
            long now;
            while (running && (now = clock.millis()) < wakeAt) {
                woken.await(wakeAt - now, TimeUnit.MILLISECONDS);
            }
            wakeAt = Long.MAX_VALUE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        } finally {
            lock.unlock();
        }
    }
}
