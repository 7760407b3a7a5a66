package io.mykit.delay.queue.timer;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A named background thread that runs one pass, sleeps until the time the pass asked for, and can be woken earlier. Any
 * error in a pass is logged and retried with backoff: the loop never dies silently.
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
    private Thread thread;

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
        thread = new Thread(this::loop, name);
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

    private void loop() {
        long backoff = MIN_BACKOFF_MS;
        while (running) {
            long next;
            try {
                next = runOnce();
                backoff = MIN_BACKOFF_MS;
            } catch (Throwable e) {
                failures++;
                log.warn("{} pass failed, retrying in {} ms: {}", name, backoff, e.toString());
                next = clock.millis() + backoff;
                backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            }
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
