package io.mykit.delay.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Drives beanstalkd as {@link LoadDriver} drives the gateway: the same thread counts, open-loop schedule, bodies and
 * measures, and the same result records, so a scenario prints both side by side. One blocking connection per driver
 * thread ({@link BeanstalkClient}).
 *
 * <ul>
 *   <li>A push is a put into the scenario's tube. beanstalkd counts delays in whole seconds from when it reads the put:
 *       a job drawn to be due d ms later is put with round(d / 1000) s, at least 1, so it waits in beanstalkd's delay
 *       heap as the gateway's job waits in its due set. Its due time is when INSERTED came back plus that delay: the
 *       put's deadline is set on receipt, before its binlog write and fsync, so this leaves the put's own round trip
 *       and fsync out of beanstalkd's lateness, in its favour.
 *   <li>A consumer of the single style sends reserve-with-timeout and, for the job it got, a delete; the batch style
 *       takes one job with a blocking reserve-with-timeout, then up to count - 1 more that are ready now
 *       ({@link BeanstalkClient#reserveReady}), and deletes them all in one write. A delete must come from the
 *       connection that reserved the job, so each consumer sends its deletes in the same write as its next reserve (the
 *       gateway driver's consumers hand theirs to finisher threads): either way no round trip waits for them.
 *       beanstalkd's reserve timeout is whole seconds: a timeout of t ms waits ceil(t / 1000) s.
 * </ul>
 *
 * Threads are named "bench-..." as the gateway driver's, so the bench JVM's CPU meter files them under the driver.
 */
final class BeanstalkDriver {
    /** Far enough that nothing pushed by the throughput scenarios falls due while the bench runs. */
    static final int FAR_DELAY_SECONDS = (int) Duration.ofDays(30).toSeconds();
    /** Seconds a reserved job may stay undeleted before beanstalkd hands it out again; the gateway's ttr=30000. */
    static final int TTR_SECONDS = 30;

    private static final int PREFILL_CHUNK = 1_000;

    private final Beanstalkd server;
    private final byte[] body;
    private final CpuMeter cpu;

    BeanstalkDriver(Beanstalkd server, int bodyBytes, CpuMeter cpu) {
        this.server = server;
        this.body = "x".repeat(bodyBytes).getBytes(StandardCharsets.US_ASCII);
        this.cpu = cpu;
    }

    /** Whole seconds beanstalkd waits for a reserve that would wait {@code ms} at the gateway. */
    static int reserveTimeoutSeconds(long ms) {
        return (int) Math.max(1, (ms + 999) / 1000);
    }

    /** The delay beanstalkd gets for a job drawn to be due {@code ms} later: whole seconds, at least 1. */
    static int delaySeconds(long ms) {
        return (int) Math.max(1, Math.round(ms / 1000.0));
    }

    /**
     * {@code count} jobs into {@code tube} due {@code delaySeconds} after their put, pipelined in writes of
     * {@value #PREFILL_CHUNK} from {@code connections} threads; their ids go to {@code ids}. Returns jobs/s.
     */
    double prefill(String tube, int count, int delaySeconds, int connections, Set<Long> ids)
            throws InterruptedException {
        AtomicLong next = new AtomicLong();
        AtomicReference<String> failure = new AtomicReference<>();
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            workers.add(started("bench-bk-prefill-", c, () -> {
                try (BeanstalkClient client = server.connect()) {
                    client.use(tube);
                    long from;
                    while ((from = next.getAndAdd(PREFILL_CHUNK)) < count && failure.get() == null) {
                        int n = (int) Math.min(PREFILL_CHUNK, count - from);
                        Arrays.stream(client.putPipelined(n, delaySeconds, TTR_SECONDS, body))
                                .forEach(ids::add);
                    }
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e.toString());
                }
            }));
        }
        joinAll(workers);
        if (failure.get() != null) {
            throw new IllegalStateException("beanstalkd prefill failed: " + failure.get());
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

    /** Scenario 1's shape: {@code clients} threads each put one far-future job at a time, closed loop. */
    LoadDriver.Throughput singlePush(int clients, int warmupSeconds, int windowSeconds, int windows)
            throws InterruptedException {
        long windowNs = TimeUnit.SECONDS.toNanos(windowSeconds);
        long measureStart = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long measureEnd = measureStart + windows * windowNs;
        List<long[]> jobs = new ArrayList<>();
        List<Histogram> latencies = new ArrayList<>();
        AtomicLong calls = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            long[] perWindow = new long[windows];
            Histogram latency = new Histogram();
            jobs.add(perWindow);
            latencies.add(latency);
            workers.add(started("bench-bk-single-", c, () -> {
                try (BeanstalkClient client = server.connect()) {
                    client.use("bench-bk-single");
                    long t0;
                    while ((t0 = System.nanoTime()) < measureEnd) {
                        String error = null;
                        try {
                            client.put(FAR_DELAY_SECONDS, TTR_SECONDS, body);
                        } catch (IOException e) {
                            error = e.toString();
                        }
                        long t1 = System.nanoTime();
                        if (t1 >= measureStart && t1 < measureEnd) {
                            calls.incrementAndGet();
                            if (error == null) {
                                perWindow[(int) ((t1 - measureStart) / windowNs)]++;
                                latency.record((t1 - t0) / 1000);
                            } else {
                                errors.incrementAndGet();
                                firstError.compareAndSet(null, error);
                            }
                        }
                        if (error != null) {
                            return;
                        }
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, e.toString());
                }
            }));
        }
        sleepUntil(measureStart);
        CpuMeter.Sample cpuStart = cpu.sample();
        sleepUntil(measureEnd);
        CpuMeter.Usage used = CpuMeter.between(cpuStart, cpu.sample());
        joinAll(workers);
        List<Double> rates = new ArrayList<>();
        for (int w = 0; w < windows; w++) {
            int window = w;
            rates.add(jobs.stream().mapToLong(perWindow -> perWindow[window]).sum() / (double) windowSeconds);
        }
        return new LoadDriver.Throughput(
                rates, windowSeconds, Histogram.merged(latencies), calls.get(), errors.get(), firstError.get(), used);
    }

    /**
     * The steady-rate delivery of {@link LoadDriver#steadyDelivery}: {@code rate} puts a second for {@code seconds}
     * from {@code pushers} threads on an open-loop schedule, each due {@code minDelayMs..maxDelayMs} later (whole
     * seconds, see the class comment), while {@code pullers} consumers take {@code pullBatch} at a time, waiting
     * {@code pollTimeoutMs} (rounded up to seconds) for the first. Ends once every put job was received, or
     * {@code graceMs} after the last one fell due.
     */
    LoadDriver.Lateness steadyDelivery(
            String tube,
            int rate,
            int seconds,
            int pushers,
            int pullers,
            int pullBatch,
            int minDelayMs,
            int maxDelayMs,
            long pollTimeoutMs,
            long graceMs)
            throws InterruptedException {
        Map<Long, Long> dues = new ConcurrentHashMap<>(rate * seconds * 2);
        Consumers consumers =
                new Consumers(tube, pullers, pullBatch, reserveTimeoutSeconds(pollTimeoutMs), rate * seconds);
        CpuMeter.Sample cpuStart = cpu.sample();
        Push push = steadyPush(tube, rate, seconds, pushers, minDelayMs, maxDelayMs, dues);
        long deadline = System.currentTimeMillis() + delaySeconds(maxDelayMs) * 1000L + graceMs;
        while (consumers.received.size() < dues.size() && System.currentTimeMillis() < deadline) {
            pause(20);
        }
        CpuMeter.Usage used = CpuMeter.between(cpuStart, cpu.sample());
        consumers.stop();

        Histogram lateness = new Histogram();
        Histogram waiting = new Histogram();
        long unexpected = 0;
        for (Consumer consumer : consumers.all) {
            for (int i = 0; i < consumer.count; i++) {
                Long due = dues.get(consumer.ids[i]);
                if (due == null) {
                    unexpected++;
                    continue;
                }
                lateness.record(consumer.receivedAt[i] - due);
                if (consumer.askedAt[i] <= due) {
                    waiting.record(consumer.receivedAt[i] - due);
                }
            }
        }
        Set<Long> missing = new HashSet<>(dues.keySet());
        missing.removeAll(consumers.received);
        return new LoadDriver.Lateness(
                lateness,
                waiting,
                push.latency,
                push.sendLag,
                push.seconds,
                dues.size(),
                consumers.received.size(),
                consumers.duplicates.get(),
                unexpected,
                missing.size(),
                push.rate,
                consumers.gets(),
                consumers.empty(),
                push.errors,
                consumers.reserveErrors.get(),
                consumers.deleteErrors.get(),
                push.firstError != null ? push.firstError : consumers.firstError.get(),
                used);
    }

    /**
     * A drain: {@code pullers} consumers watch {@code tube} from before {@code dueAt} (the instant its jobs become
     * reservable) and delete what they get, until every one of {@code ids} was deleted or {@code maxMs} after
     * {@code dueAt}. CPU counts from {@code dueAt}; lateness is the time after {@code dueAt}.
     */
    LoadDriver.Drain drain(
            String tube, Set<Long> ids, long dueAt, int pullers, int pullBatch, long pollTimeoutMs, long maxMs)
            throws InterruptedException {
        Consumers consumers = new Consumers(tube, pullers, pullBatch, reserveTimeoutSeconds(pollTimeoutMs), ids.size());
        long left;
        while ((left = dueAt - System.currentTimeMillis()) > 0) {
            Thread.sleep(left);
        }
        CpuMeter.Sample cpuStart = cpu.sample();
        long deadline = dueAt + maxMs;
        while (consumers.deleted.get() < ids.size() && System.currentTimeMillis() < deadline) {
            pause(5);
        }
        CpuMeter.Usage used = CpuMeter.between(cpuStart, cpu.sample());
        consumers.stop();

        Histogram lateness = new Histogram();
        for (Consumer consumer : consumers.all) {
            for (int i = 0; i < consumer.count; i++) {
                lateness.record(consumer.receivedAt[i] - dueAt);
            }
        }
        Set<Long> missing = new HashSet<>(ids);
        missing.removeAll(consumers.received);
        Set<Long> unexpected = new HashSet<>(consumers.received);
        unexpected.removeAll(ids);
        return new LoadDriver.Drain(
                lateness,
                consumers.received.size(),
                consumers.deleted.get(),
                consumers.duplicates.get(),
                unexpected.size(),
                missing.size(),
                consumers.lastDeletedAt.get(),
                consumers.gets(),
                consumers.reserveErrors.get(),
                consumers.deleteErrors.get(),
                consumers.firstError.get(),
                used);
    }

    /** What the pushers of one steady run did. */
    private record Push(
            Histogram latency,
            Histogram sendLag,
            LoadDriver.PerSecond seconds,
            double rate,
            long errors,
            String firstError) {}

    private Push steadyPush(
            String tube, int rate, int seconds, int pushers, int minDelayMs, int maxDelayMs, Map<Long, Long> dues)
            throws InterruptedException {
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long total = (long) rate * seconds;
        long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        long startEpochMs = System.currentTimeMillis() + 100;
        AtomicLong ticket = new AtomicLong();
        List<Histogram> latencies = new ArrayList<>();
        List<Histogram> sendLags = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        LoadDriver.PerSecond perSecond = new LoadDriver.PerSecond(seconds, startEpochMs);
        for (int p = 0; p < pushers; p++) {
            Histogram latency = new Histogram();
            Histogram sendLag = new Histogram();
            latencies.add(latency);
            sendLags.add(sendLag);
            threads.add(started("bench-bk-pusher-", p, () -> {
                try (BeanstalkClient client = server.connect()) {
                    client.use(tube);
                    long i;
                    while ((i = ticket.getAndIncrement()) < total) {
                        // job i leaves at its slot; a pusher that fell behind sends at once, so the rate catches up
                        long slot = startNs + i * 1_000_000_000L / rate;
                        PacedSchedule.awaitSlot(slot);
                        int delay = delaySeconds(ThreadLocalRandom.current().nextLong(minDelayMs, maxDelayMs + 1L));
                        long t0 = System.nanoTime();
                        long lagMs = (t0 - slot) / 1_000_000;
                        sendLag.record(lagMs);
                        try {
                            long id = client.put(delay, TTR_SECONDS, body);
                            dues.put(id, System.currentTimeMillis() + delay * 1000L);
                            long micros = (System.nanoTime() - t0) / 1000;
                            latency.record(micros);
                            perSecond.record((int) (i / rate), lagMs, micros);
                        } catch (IOException e) {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, "put: " + e.getMessage());
                            return;
                        }
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, "connect: " + e.getMessage());
                }
            }));
        }
        joinAll(threads);
        double pushRate = dues.size() / ((System.nanoTime() - startNs) / 1e9);
        return new Push(
                Histogram.merged(latencies),
                Histogram.merged(sendLags),
                perSecond,
                pushRate,
                errors.get(),
                firstError.get());
    }

    /** The consumers of one tube, started together and stopped together. */
    private final class Consumers {
        final List<Consumer> all = new ArrayList<>();
        final Set<Long> received;
        final AtomicLong duplicates = new AtomicLong();
        final AtomicLong deleted = new AtomicLong();
        final AtomicLong lastDeletedAt = new AtomicLong();
        final AtomicLong reserveErrors = new AtomicLong();
        final AtomicLong deleteErrors = new AtomicLong();
        final AtomicReference<String> firstError = new AtomicReference<>();
        final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();

        Consumers(String tube, int count, int batch, int timeoutSeconds, int expectedJobs) {
            received = ConcurrentHashMap.newKeySet(expectedJobs);
            for (int c = 0; c < count; c++) {
                // the stream style's peer: beanstalkd's own consumer loop, one job a reserve
                int reserves = Math.max(1, batch);
                Consumer consumer = new Consumer(this, tube, reserves, timeoutSeconds, expectedJobs / count + 16);
                all.add(consumer);
                threads.add(started("bench-bk-consumer-", c, consumer));
            }
        }

        /** Ends the reserves (up to their timeout) after their last deletes. */
        void stop() throws InterruptedException {
            stop.set(true);
            joinAll(threads);
        }

        long gets() {
            return all.stream().mapToLong(c -> c.reserves).sum();
        }

        long empty() {
            return all.stream().mapToLong(c -> c.empty).sum();
        }
    }

    /** One consumer on a connection of its own: what it got and when, kept in arrays its thread alone writes. */
    private final class Consumer implements Runnable {
        private final Consumers run;
        private final String tube;
        private final int batch;
        private final int timeoutSeconds;
        long[] ids;
        long[] receivedAt;
        /** When the reserve that got the job was sent: before its due time means a consumer was waiting for it. */
        long[] askedAt;

        int count;
        long reserves;
        long empty;

        Consumer(Consumers run, String tube, int batch, int timeoutSeconds, int capacity) {
            this.run = run;
            this.tube = tube;
            this.batch = batch;
            this.timeoutSeconds = timeoutSeconds;
            this.ids = new long[capacity];
            this.receivedAt = new long[capacity];
            this.askedAt = new long[capacity];
        }

        @Override
        public void run() {
            try (BeanstalkClient client = server.connect()) {
                client.watchOnly(tube);
                List<Long> toDelete = new ArrayList<>();
                while (!run.stop.get()) {
                    long asked = System.currentTimeMillis();
                    BeanstalkClient.Reserved first;
                    try {
                        first = client.deleteAndReserve(toDelete, timeoutSeconds);
                    } catch (IOException e) {
                        failed(toDelete.isEmpty() ? run.reserveErrors : run.deleteErrors, "reserve/delete: " + e);
                        return;
                    }
                    deleted(toDelete);
                    reserves++;
                    if (first == null) {
                        empty++;
                        continue;
                    }
                    record(first.id(), System.currentTimeMillis(), asked);
                    toDelete.add(first.id());
                    if (batch > 1) {
                        for (BeanstalkClient.Reserved more : client.reserveReady(batch - 1)) {
                            record(more.id(), System.currentTimeMillis(), asked);
                            toDelete.add(more.id());
                        }
                    }
                }
                if (!toDelete.isEmpty()) {
                    client.deleteAll(toDelete);
                    deleted(toDelete);
                }
            } catch (IOException e) {
                failed(run.reserveErrors, "consumer: " + e);
            }
        }

        private void deleted(List<Long> ids) {
            if (!ids.isEmpty()) {
                run.deleted.addAndGet(ids.size());
                run.lastDeletedAt.accumulateAndGet(System.currentTimeMillis(), Math::max);
                ids.clear();
            }
        }

        private void record(long id, long at, long asked) {
            if (!run.received.add(id)) {
                run.duplicates.incrementAndGet();
            }
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, count * 2);
                receivedAt = Arrays.copyOf(receivedAt, count * 2);
                askedAt = Arrays.copyOf(askedAt, count * 2);
            }
            ids[count] = id;
            receivedAt[count] = at;
            askedAt[count] = asked;
            count++;
        }

        private void failed(AtomicLong counter, String error) {
            counter.incrementAndGet();
            run.firstError.compareAndSet(null, error);
        }
    }

    private Thread started(String prefix, int index, Runnable work) {
        Thread thread = new Thread(work, prefix + index);
        thread.start();
        return thread;
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
