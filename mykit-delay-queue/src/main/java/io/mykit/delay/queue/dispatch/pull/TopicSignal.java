package io.mykit.delay.queue.dispatch.pull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where long-polls of one topic wait; it lives only while a poll uses the topic ({@link TopicSignals}). A hand-over
 * wakes waiters oldest first, only as many as its jobs need (each asked for up to {@code wants}); waking all of them
 * sent every puller to Redis for each hand-over and cost more gateway and Redis CPU than the deliveries in the bench. A
 * thread waiter not woken looks again after the safety interval; an async one is looked for by the topic's safety
 * re-check, oldest first.
 */
final class TopicSignal {
    /** A waiting long-poll: a parked thread or an async poll. */
    interface Sleeper {
        int wants();

        /** Makes it look again; {@code chain}: it came from the safety re-check, not from a hand-over. */
        void wake(boolean chain);

        /** Whether its caller lost the right to an answer (a revoked token). */
        default boolean revoked() {
            return false;
        }
    }

    /** Long-polls using this signal; changed only inside the signal map's compute calls. */
    private int users;

    private long generation;
    private final Deque<Sleeper> waiters = new ArrayDeque<>();

    /** A long-poll waiting on its own thread. */
    private static final class ThreadWaiter implements Sleeper {
        final Thread thread = Thread.currentThread();
        final int wants;
        volatile boolean woken;

        ThreadWaiter(int wants) {
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

    /** One more poll uses the signal; only inside the signal map's compute calls. */
    TopicSignal addUser() {
        users++;
        return this;
    }

    /** One poll fewer uses the signal; true when none is left. Only inside the signal map's compute calls. */
    boolean removeUser() {
        return --users == 0;
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
                if (!(waiter instanceof ThreadWaiter)) {
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

    /** Waiters whose caller lost its right to an answer look once more, which ends them. */
    void wakeRevoked() {
        List<Sleeper> woken = new ArrayList<>();
        synchronized (this) {
            waiters.removeIf(waiter -> waiter.revoked() && woken.add(waiter));
        }
        woken.forEach(waiter -> waiter.wake(false));
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
                .filter(waiter -> !(waiter instanceof ThreadWaiter))
                .count();
    }

    /** Waits up to {@code timeoutMs} for a hand-over, unless one came since {@code seen} was read. */
    void awaitChange(long seen, long timeoutMs, int wants) throws InterruptedException {
        ThreadWaiter waiter = new ThreadWaiter(wants);
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
