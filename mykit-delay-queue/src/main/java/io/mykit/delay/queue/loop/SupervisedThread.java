package io.mykit.delay.queue.loop;

import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon thread whose body is run again when something escapes it (an error thrown while the body logs another, as
 * under a full heap) for as long as it should run: the writer and sender threads that loop on a queue of their own.
 */
public final class SupervisedThread extends Thread {
    private static final Logger log = LoggerFactory.getLogger(SupervisedThread.class);
    private static final long PAUSE_MS = 1_000;

    private final Runnable body;
    private final BooleanSupplier shouldRun;
    private volatile long restarts;

    public SupervisedThread(String name, Runnable body, BooleanSupplier shouldRun) {
        super(name);
        this.body = body;
        this.shouldRun = shouldRun;
        setDaemon(true);
    }

    @Override
    public void run() {
        while (true) {
            try {
                body.run();
                return;
            } catch (Throwable escaped) {
                // nothing allocated before the counter: the heap may be full
                restarts++;
                if (!shouldRun.getAsBoolean()) {
                    return;
                }
                pauseAfter(escaped);
            }
        }
    }

    private void pauseAfter(Throwable escaped) {
        try {
            log.error(
                    "{} restarted after {} escaped it",
                    getName(),
                    escaped.getClass().getName());
            Thread.sleep(PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable again) {
            // the log failed as well: the next run is the next try
        }
    }

    /** Whether it should run and lives; it has no passes to time. */
    public LoopHeartbeat heartbeat() {
        boolean expected = shouldRun.getAsBoolean() && getState() != State.NEW;
        return new LoopHeartbeat(getName(), expected, isAlive(), -1, -1, -1, 0, restarts);
    }
}
