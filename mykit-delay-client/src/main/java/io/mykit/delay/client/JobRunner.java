package io.mykit.delay.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Runs the handler on one held job and acknowledges it by the outcome: returned, finish; {@link NonRetryableException},
 * bury; anything else, release after a back-off that grows with the job's attempts. A manual handler's job is left to
 * its {@link Acknowledgement}. A job whose stream ended before it started, or whose consumer is closing, is not
 * started: the gateway has it back (or will, when the stream closes).
 */
final class JobRunner {
    private static final System.Logger LOG = System.getLogger(DelayConsumer.class.getName());

    private final ConsumerSettings settings;
    private final Acknowledger acknowledger;
    private final BooleanSupplier stopping;

    JobRunner(ConsumerSettings settings, Acknowledger acknowledger, BooleanSupplier stopping) {
        this.settings = settings;
        this.acknowledger = acknowledger;
        this.stopping = stopping;
    }

    void run(HeldJob job) {
        if (stopping.getAsBoolean() || job.session().ended()) {
            return;
        }
        boolean manual = settings.manualHandler() != null;
        if (!job.start(System.nanoTime(), manual)) {
            return;
        }
        if (manual) {
            runManual(job);
        } else {
            runAutomatic(job);
        }
    }

    private void runAutomatic(HeldJob job) {
        try {
            settings.handler().handle(job.job());
            acknowledger.finish(job);
        } catch (NonRetryableException e) {
            acknowledger.bury(job, reason(e));
        } catch (Throwable e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                if (stopping.getAsBoolean()) {
                    // cut off by close(): the job goes back with the stream, not counted as a try
                    return;
                }
            }
            Duration delay = settings.releaseBackoff().delay(job.job().attempts());
            LOG.log(Level.DEBUG, "job " + job.id() + " failed; due again in " + delay, e);
            acknowledger.release(job, delay, e);
            if (e instanceof Error error && !(e instanceof AssertionError) && !(e instanceof LinkageError)) {
                // the job is given back first; an error of the JVM itself is not the handler's to hide
                throw error;
            }
        }
    }

    private void runManual(HeldJob job) {
        try {
            settings.manualHandler().handle(job.job(), new ManualAck(job));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.log(Level.WARNING, "manual handler of job " + job.id() + " threw; the job waits for its ack", e);
        }
    }

    private static String reason(NonRetryableException e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getName();
    }

    /** A manual handler's acknowledgement of its job. */
    private final class ManualAck implements Acknowledgement {
        private final HeldJob job;

        ManualAck(HeldJob job) {
            this.job = job;
        }

        @Override
        public void finish() {
            requireFirst(acknowledger.finish(job));
        }

        @Override
        public void release(Duration delay) {
            if (delay == null || delay.isNegative()) {
                throw new IllegalArgumentException("delay must be zero or more, was " + delay);
            }
            requireFirst(acknowledger.release(job, delay, null));
        }

        @Override
        public void touch() {
            if (job.acknowledged()) {
                throw new IllegalStateException("job " + job.id() + " is acknowledged already");
            }
            acknowledger.touch(job);
        }

        @Override
        public void bury(String reason) {
            requireFirst(acknowledger.bury(job, reason));
        }

        private void requireFirst(boolean first) {
            if (!first) {
                throw new IllegalStateException("job " + job.id() + " is acknowledged already");
            }
        }
    }
}
