package io.mykit.delay.queue.dispatch.broker;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.DeliveryTarget;
import io.mykit.delay.queue.dispatch.SendFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A target that sends to a broker on a pool of sender threads, so a slow broker call holds one sender, not a
 * bucket timer. Each pumped batch is sent in due order by one sender and settled in one go. At most
 * {@code maxPending} jobs wait for senders; beyond that the timer handing them over waits (back-pressure).
 */
public abstract class BrokerTarget implements DeliveryTarget, AutoCloseable {
    protected final Logger log = LoggerFactory.getLogger(getClass());
    private final ExecutorService senders;
    private final Semaphore pending;
    private final int maxPending;
    private final DeliveryOutcomes outcomes;

    protected BrokerTarget(String name, int senderThreads, int maxPending, DeliveryOutcomes outcomes) {
        AtomicInteger n = new AtomicInteger();
        this.senders = Executors.newFixedThreadPool(senderThreads, r -> {
            Thread t = new Thread(r, "mykit-send-" + name + "-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        this.maxPending = maxPending;
        this.pending = new Semaphore(maxPending);
        this.outcomes = outcomes;
    }

    /** Sends the jobs in order; fills {@code delivered} with those the broker confirmed, {@code failed} with the rest. */
    protected abstract void send(List<Job> jobs, List<Job> delivered, List<SendFailure> failed);

    @Override
    public void deliver(int bucket, List<Job> jobs) {
        int permits = Math.min(jobs.size(), maxPending);
        pending.acquireUninterruptibly(permits);
        try {
            senders.execute(() -> sendAndSettle(bucket, jobs, permits));
        } catch (RuntimeException e) {
            pending.release(permits);
            throw e;
        }
    }

    private void sendAndSettle(int bucket, List<Job> jobs, int permits) {
        try {
            List<Job> delivered = new ArrayList<>(jobs.size());
            List<SendFailure> failed = new ArrayList<>();
            try {
                send(jobs, delivered, failed);
            } catch (RuntimeException e) {
                // whatever was not confirmed counts as failed
                jobs.stream().filter(j -> !delivered.contains(j) && failed.stream().noneMatch(f -> f.job().equals(j)))
                        .forEach(j -> failed.add(new SendFailure(j, e.toString())));
            }
            outcomes.settle(bucket, delivered, failed);
        } catch (Throwable e) {
            log.warn("settling {} jobs of bucket {} failed; the sweeper returns them: {}", jobs.size(), bucket, e.toString());
        } finally {
            pending.release(permits);
        }
    }

    @Override
    public void close() {
        senders.shutdown();
        try {
            if (!senders.awaitTermination(5, TimeUnit.SECONDS)) {
                senders.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeClient();
    }

    /** Releases the broker client. */
    protected abstract void closeClient();
}
