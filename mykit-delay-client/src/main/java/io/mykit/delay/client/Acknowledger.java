package io.mykit.delay.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Sends a consumer's acknowledgements on the stream that holds each job: finishes in batches, releases, burials and
 * touches one frame each. A job whose stream ended meanwhile was given back by the gateway: its finish goes over HTTP
 * ({@code POST /finish/batch}, which finishes a job waiting in its ready list), so work done is not done again; its
 * release or burial is dropped, since the job is due again already.
 */
final class Acknowledger {
    private static final System.Logger LOG = System.getLogger(DelayConsumer.class.getName());

    private final ConsumerSettings settings;
    private final Frames frames;
    private final Listeners listeners;
    private final FinishBatcher<HeldJob> finishes;
    private final ScheduledExecutorService timer;
    private final ExecutorService fallback;

    Acknowledger(
            ConsumerSettings settings,
            Frames frames,
            Listeners listeners,
            ScheduledExecutorService timer,
            ExecutorService fallback) {
        this.settings = settings;
        this.frames = frames;
        this.listeners = listeners;
        this.finishes = new FinishBatcher<>(settings.finishBatchSize());
        this.timer = timer;
        this.fallback = fallback;
    }

    /** Finishes {@code job} with the next batch; false when it was acknowledged already. */
    boolean finish(HeldJob job) {
        if (!job.acknowledge()) {
            return false;
        }
        job.session().forget(job.id());
        listeners.finished(job.job(), Duration.ofNanos(System.nanoTime() - job.startedNanos()));
        FinishBatcher.Added<HeldJob> added = finishes.add(job);
        if (!added.full().isEmpty()) {
            send(added.full());
        } else if (added.started()) {
            timer.schedule(this::flush, settings.finishFlushInterval().toNanos(), TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /** Releases {@code job}, due again after {@code delay}; false when it was acknowledged already. */
    boolean release(HeldJob job, Duration delay, Throwable cause) {
        if (!job.acknowledge()) {
            return false;
        }
        job.session().forget(job.id());
        listeners.released(job.job(), delay, cause);
        if (!job.session().send(frames.release(job.id(), delay.toMillis()))) {
            LOG.log(Level.DEBUG, "job {0}: its stream ended, the gateway gave it back already", job.id());
        }
        return true;
    }

    /** Buries {@code job} as a dead letter; false when it was acknowledged already. */
    boolean bury(HeldJob job, String reason) {
        if (!job.acknowledge()) {
            return false;
        }
        job.session().forget(job.id());
        String shortReason = Frames.shortReason(reason);
        listeners.buried(job.job(), shortReason);
        if (!job.session().send(frames.bury(job.id(), shortReason))) {
            LOG.log(
                    Level.WARNING,
                    "job {0} not buried: its stream ended and the gateway will deliver it again",
                    job.id());
        }
        return true;
    }

    /** Extends {@code job}'s reservation to the consumer's ttr from now, when its stream is still open. */
    void touch(HeldJob job) {
        job.reserved(System.nanoTime());
        job.session().send(frames.touch(job.id(), settings.ttr().toMillis()));
    }

    /** Sends the finishes waiting in the batch, unless they are held. */
    void flush() {
        send(finishes.drain());
    }

    /** Holds finishes until {@link #flushAll()}: the consumer is stopping and takes no more jobs. */
    void hold() {
        finishes.hold();
    }

    /** Sends held finishes whose first is {@code ageNanos} old: their jobs' ttr must not run out meanwhile. */
    void flushOlderThan(long ageNanos) {
        send(finishes.drainOlderThan(ageNanos));
    }

    /** Sends every finish waiting, held or not. */
    void flushAll() {
        send(finishes.takeAll());
    }

    private void send(List<HeldJob> batch) {
        if (batch.isEmpty()) {
            return;
        }
        Map<StreamSession, List<String>> bySession = new LinkedHashMap<>();
        for (HeldJob job : batch) {
            bySession
                    .computeIfAbsent(job.session(), session -> new ArrayList<>())
                    .add(job.id());
        }
        int frameIds = settings.finishBatchSize();
        bySession.forEach((session, ids) -> {
            for (int from = 0; from < ids.size(); from += frameIds) {
                List<String> part = List.copyOf(ids.subList(from, Math.min(ids.size(), from + frameIds)));
                if (!session.send(frames.finish(part))) {
                    finishOverHttp(part);
                }
            }
        });
    }

    private void finishOverHttp(List<String> ids) {
        try {
            fallback.execute(() -> {
                try {
                    settings.client().finishAll(ids);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "finish of " + ids.size() + " jobs over HTTP failed: they come again", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            LOG.log(Level.WARNING, "consumer closed: {0} finished jobs not acknowledged, they come again", ids.size());
        }
    }
}
