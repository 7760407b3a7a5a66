package io.mykit.delay.queue.journal;

import io.mykit.delay.queue.loop.LoopHeartbeat;
import io.mykit.delay.queue.loop.SupervisedThread;
import io.mykit.delay.queue.metrics.QueueMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes state changes to the journal in batches from one thread, in the order they were made. A batch that fails
 * (database down) is kept and retried with backoff until it is written: a change is never dropped. After the first
 * change of a batch it waits {@code lingerMs} for more, so that the steps of a job that follow each other closely
 * (Ready, then Finish a few ms later) land in one flush and the job row is updated once.
 */
public class StateChangeWriter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StateChangeWriter.class);
    private static final long MAX_BACKOFF_MS = 5_000;
    private static final long CLOSE_WAIT_MS = 15_000;

    private final Journal journal;
    private final int batchSize;
    private final long lingerMs;
    private final LinkedBlockingQueue<StateChange> queue = new LinkedBlockingQueue<>();
    private final SupervisedThread thread;
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    /**
     * Read side: ends under way (job gone from Redis, its change not yet submitted); write side: a restore waiting for
     * them.
     */
    private final ReentrantReadWriteLock endings = new ReentrantReadWriteLock();

    private volatile boolean running = true;
    private volatile QueueMetrics metrics = QueueMetrics.NONE;
    private volatile Consumer<List<StateChange>> onWritten = written -> {};

    /** An end under way; closing it says its change was submitted (or written). */
    public interface Ending extends AutoCloseable {
        @Override
        void close();
    }

    public StateChangeWriter(Journal journal, int batchSize, long lingerMs) {
        this.journal = journal;
        this.batchSize = batchSize;
        this.lingerMs = lingerMs;
        this.thread = new SupervisedThread("mykit-journal-states", this::run, () -> running);
    }

    public void start() {
        thread.start();
    }

    /** Where batch sizes and commit times are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Told each batch once it is written (on the writer's thread; a failure is logged, the batch stays written): the
     * store drops the finish marks of the jobs whose Finish it held.
     */
    public void onWritten(Consumer<List<StateChange>> onWritten) {
        this.onWritten = onWritten;
    }

    public void submit(StateChange change) {
        submitted.incrementAndGet();
        queue.add(change);
    }

    public void submitAll(List<StateChange> changes) {
        submitted.addAndGet(changes.size());
        queue.addAll(changes);
    }

    /** The writer thread's state, for health. */
    public LoopHeartbeat heartbeat() {
        return thread.heartbeat();
    }

    /** Changes submitted since the start. */
    public long submitted() {
        return submitted.get();
    }

    /** Changes waiting to be written (grows while the database is down). */
    public int backlog() {
        return queue.size();
    }

    /**
     * Opens an end: call before removing a job from Redis, close once its ending change is submitted, so that
     * {@link #flushEndings} can tell when every end begun before it is in the journal.
     */
    public Ending beginEnding() {
        endings.readLock().lock();
        return endings.readLock()::unlock;
    }

    /**
     * Waits until every end opened before this call was closed, then until everything submitted is written: after it,
     * the journal shows each job that left Redis earlier as ended. True when both happened within the timeout.
     */
    public boolean flushEndings(long timeoutMs) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMs;
        if (!endings.writeLock().tryLock(timeoutMs, TimeUnit.MILLISECONDS)) {
            return false;
        }
        endings.writeLock().unlock();
        return flush(Math.max(0, end - System.currentTimeMillis()));
    }

    /** Blocks until everything submitted so far is written, or the timeout passes; true when drained. */
    public boolean flush(long timeoutMs) throws InterruptedException {
        long target = submitted.get();
        long end = System.currentTimeMillis() + timeoutMs;
        while (written.get() < target && System.currentTimeMillis() < end) {
            Thread.sleep(5);
        }
        return written.get() >= target;
    }

    private void run() {
        List<StateChange> batch = new ArrayList<>(batchSize);
        long backoff = 50;
        while (running || !queue.isEmpty()) {
            try {
                if (batch.isEmpty()) {
                    StateChange first = queue.poll(200, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    batch.add(first);
                    if (lingerMs > 0 && running && queue.size() < batchSize - 1) {
                        Thread.sleep(lingerMs);
                    }
                    queue.drainTo(batch, batchSize - 1);
                }
                long started = System.nanoTime();
                journal.apply(batch);
                metrics.journalBatch("state", batch.size(), System.nanoTime() - started);
                written.addAndGet(batch.size());
                tellWritten(batch);
                batch.clear();
                backoff = 50;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (!running) {
                    break;
                }
            } catch (Throwable e) {
                log.warn(
                        "journal state write of {} changes failed ({} more queued), retrying in {} ms: {}",
                        batch.size(),
                        queue.size(),
                        backoff,
                        e.getMessage());
                sleepQuietly(backoff);
                backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            }
        }
        if (!batch.isEmpty() || !queue.isEmpty()) {
            log.error(
                    "stopped with {} journal state changes unwritten; /reStore repairs Redis from the journal",
                    batch.size() + queue.size());
        }
    }

    private void tellWritten(List<StateChange> batch) {
        try {
            onWritten.accept(batch);
        } catch (RuntimeException e) {
            // what it drops is dropped later by the stranded-job repairer, which finds the journal ended
            log.debug("after-write step of {} journal changes failed: {}", batch.size(), e.toString());
        }
    }

    private void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops after writing what is queued, waiting at most {@link #CLOSE_WAIT_MS} (a database that answers slowly). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
    }
}
