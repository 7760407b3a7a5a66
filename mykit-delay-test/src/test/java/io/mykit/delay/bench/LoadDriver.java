package io.mykit.delay.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Drives the gateway over real HTTP/1.1 (keep-alive, one blocking connection per driver thread: {@link PlainHttp}) and
 * measures what the clients see. Closed-loop scenarios (each client sends, waits for the answer, sends again) run a
 * warm-up and then consecutive measurement windows, so one run yields several samples to take the median of. Given
 * several gateways (a cluster), the threads of each role are spread over them round-robin.
 */
final class LoadDriver {
    /** Far enough that nothing pushed by the throughput scenarios falls due while the bench runs. */
    static final long FAR_DELAY_MS = Duration.ofDays(30).toMillis();

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Threads that send the pullers' finishes, so a puller goes back to its GET at once. */
    static final int FINISHERS = 4;

    /** Each driver thread's own connection to its gateway; closed when its work ends (see {@link #started}). */
    private final ThreadLocal<PlainHttp> connection = new ThreadLocal<>();

    private final List<URI> nodes;
    /** The first gateway: requests are encoded once for it and sent to any (the gateway ignores the Host header). */
    private final URI base;

    private final String body;
    private final CpuMeter cpu;
    /** How long a puller's GET waits for a job before the gateway answers empty. */
    private long pollTimeoutMs = 5_000;

    /** Jobs/s of each window, per-call latency (µs) of all windows, failed calls, and the CPU spent meanwhile. */
    record Throughput(
            List<Double> jobsPerSecond,
            int windowSeconds,
            Histogram latencyMicros,
            long calls,
            long errors,
            String firstError,
            CpuMeter.Usage cpu) {
        double median() {
            return Histogram.median(jobsPerSecond);
        }

        double min() {
            return jobsPerSecond.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        }

        double max() {
            return jobsPerSecond.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        }

        /** Jobs accepted in all windows. */
        long jobs() {
            return Math.round(
                    jobsPerSecond.stream().mapToDouble(Double::doubleValue).sum() * windowSeconds);
        }
    }

    /**
     * Outcome of the steady-rate delivery scenario. Lateness is in ms past the due time, as the puller saw it;
     * {@code waitingLatenessMs} keeps only jobs whose GET was already waiting at the due time, so it is the gateway's
     * own delay, free of any queueing for a busy puller.
     */
    record Lateness(
            Histogram latenessMs,
            Histogram waitingLatenessMs,
            Histogram pushMicros,
            Histogram sendLagMs,
            PerSecond pushSeconds,
            long pushed,
            long received,
            long duplicates,
            long unexpected,
            long missing,
            double pushRate,
            long gets,
            long emptyGets,
            long pushErrors,
            long pullErrors,
            long finishErrors,
            String firstError,
            CpuMeter.Usage cpu) {}

    /**
     * Outcome of a drain: lateness (ms past due) as the pullers saw it, jobs finished (finish answered), and the epoch
     * ms of the last finish answer.
     */
    record Drain(
            Histogram latenessMs,
            long received,
            long finished,
            long duplicates,
            long unexpected,
            long missing,
            long lastFinishedAt,
            long gets,
            long pullErrors,
            long finishErrors,
            String firstError,
            CpuMeter.Usage cpu) {}

    /**
     * What a steady-rate push sent: the ids the gateway gave the jobs, per-call latency (µs), the rate reached and the
     * send lag (ms): how long after its planned time each push was sent, the open-loop schedule's debt.
     */
    record SteadyPush(
            Set<String> ids,
            Histogram latencyMicros,
            Histogram sendLagMs,
            PerSecond seconds,
            double rate,
            long errors,
            String firstError) {}

    /** The worst send lag (ms) and push latency (us) of each second of a steady push's schedule: when its debt grew. */
    static final class PerSecond {
        private static final DateTimeFormatter CLOCK =
                DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
        private final AtomicLongArray lagMs;
        private final AtomicLongArray latencyMicros;
        /** Wall-clock time of the schedule's second 0, to find a bad second in the gateway's or a server's logs. */
        private final long startEpochMs;

        PerSecond(int seconds, long startEpochMs) {
            this.lagMs = new AtomicLongArray(seconds);
            this.latencyMicros = new AtomicLongArray(seconds);
            this.startEpochMs = startEpochMs;
        }

        void record(int second, long lag, long latency) {
            lagMs.accumulateAndGet(second, lag, Math::max);
            latencyMicros.accumulateAndGet(second, latency, Math::max);
        }

        /**
         * The {@code n} seconds with the worst send lag, in schedule order: "s3 (20:07:14 UTC) lag 724 ms, push max
         * 172.2 ms".
         */
        String worst(int n) {
            return IntStream.range(0, lagMs.length())
                    .boxed()
                    .sorted((a, b) -> Long.compare(lagMs.get(b), lagMs.get(a)))
                    .limit(n)
                    .sorted()
                    .map(s -> String.format(
                            Locale.ROOT,
                            "s%d (%s UTC) lag %d ms, push max %s ms",
                            s,
                            CLOCK.format(Instant.ofEpochMilli(startEpochMs + s * 1000L)),
                            lagMs.get(s),
                            ReportTable.micros(latencyMicros.get(s))))
                    .collect(Collectors.joining("; "));
        }
    }

    LoadDriver(String base, int bodyBytes, CpuMeter cpu) {
        this(List.of(base), bodyBytes, cpu);
    }

    /** A driver of several gateways sharing one Redis: thread i of each role talks to gateway i mod their number. */
    LoadDriver(List<String> bases, int bodyBytes, CpuMeter cpu) {
        this.nodes = bases.stream().map(URI::create).toList();
        this.base = nodes.get(0);
        this.body = "x".repeat(bodyBytes);
        this.cpu = cpu;
    }

    /** The same driver with pullers whose GETs wait {@code ms} at most (shorter stops a quick run sooner). */
    LoadDriver pollTimeout(long ms) {
        this.pollTimeoutMs = ms;
        return this;
    }

    /** Scenario 1: {@code clients} threads each POST /push one job at a time. */
    Throughput singlePush(int clients, int warmupSeconds, int windowSeconds, int windows) throws InterruptedException {
        PlainHttp.Request push = post("/push", job("bench-single", FAR_DELAY_MS));
        return closedLoop("single", clients, warmupSeconds, windowSeconds, windows, push, 1);
    }

    /** Scenario 2: {@code clients} threads each POST /push/batch with {@code size} jobs per call. */
    Throughput batchPush(int clients, int size, int warmupSeconds, int windowSeconds, int windows)
            throws InterruptedException {
        PlainHttp.Request batch = post("/push/batch", jobArray(job("bench-batch", FAR_DELAY_MS), size));
        return closedLoop("batch", clients, warmupSeconds, windowSeconds, windows, batch, size);
    }

    /** Pushes {@code count} far-future jobs in batches of 1000 from a few threads; returns jobs/s. */
    double prefill(String topic, int count, int clients) throws InterruptedException {
        return pushBatches(job(topic, FAR_DELAY_MS), count, clients, ConcurrentHashMap.newKeySet());
    }

    /**
     * Pushes {@code count} jobs that all fall due at {@code createTime + delayMs}, in batches of 1000 from a few
     * threads; adds the ids the gateway gave them to {@code ids} and returns jobs/s.
     */
    double pushDueAt(String topic, int count, int clients, long createTime, long delayMs, Set<String> ids)
            throws InterruptedException {
        String job = "{\"topic\":\"" + topic + "\",\"createTime\":" + createTime + ",\"delay\":" + delayMs
                + ",\"body\":\"" + body + "\"}";
        return pushBatches(job, count, clients, ids);
    }

    private double pushBatches(String job, int count, int clients, Set<String> ids) throws InterruptedException {
        int size = 1000;
        AtomicLong next = new AtomicLong();
        AtomicReference<String> failure = new AtomicReference<>();
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            workers.add(started("bench-batch-push-", c, () -> {
                long from;
                while ((from = next.getAndAdd(size)) < count && failure.get() == null) {
                    try {
                        String reply = send(post("/push/batch", jobArray(job, (int) Math.min(size, count - from))));
                        JSON.readTree(reply).path("data").forEach(id -> ids.add(id.asText()));
                    } catch (Exception e) {
                        failure.compareAndSet(null, e.toString());
                    }
                }
            }));
        }
        joinAll(workers);
        if (failure.get() != null) {
            throw new IllegalStateException("batch push failed: " + failure.get());
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * Scenario 3: jobs due {@code minDelayMs..maxDelayMs} after their push, pushed at a steady rate by {@code pushers}
     * threads, while {@code pullers} long-poll GET /get/{topic} and finish what they get. Ends once every pushed job
     * was received, or {@code graceMs} after the last one fell due.
     */
    Lateness steadyDelivery(
            String topic,
            int rate,
            int seconds,
            int pushers,
            int pullers,
            int pullBatch,
            int minDelayMs,
            int maxDelayMs,
            long graceMs)
            throws InterruptedException {
        Consumers consumers = new Consumers(topic, pullers, pullBatch, rate * seconds);
        Delivery run = consumers.run;
        CpuMeter.Sample cpuStart = cpu.sample();
        SteadyPush push = steadyPush(topic, rate, seconds, pushers, minDelayMs, maxDelayMs);
        long deadline = System.currentTimeMillis() + maxDelayMs + graceMs;
        while (run.received.size() < push.ids().size() && System.currentTimeMillis() < deadline) {
            pause(20);
        }
        CpuMeter.Usage used = CpuMeter.between(cpuStart, cpu.sample());
        consumers.stop();

        Set<String> missing = new HashSet<>(push.ids());
        missing.removeAll(run.received);
        Set<String> unexpected = new HashSet<>(run.received);
        unexpected.removeAll(push.ids());
        String firstError = push.firstError() != null ? push.firstError() : run.firstError.get();
        return new Lateness(
                consumers.lateness(),
                consumers.waitingLateness(),
                push.latencyMicros(),
                push.sendLagMs(),
                push.seconds(),
                push.ids().size(),
                run.received.size(),
                run.duplicates.get(),
                unexpected.size(),
                missing.size(),
                push.rate(),
                consumers.gets(),
                consumers.emptyGets(),
                push.errors(),
                run.pullErrors.get(),
                run.finishErrors.get(),
                firstError,
                used);
    }

    /**
     * The pull side of a drain: {@code pullers} long-poll {@code topic} from before {@code dueAt} and finish what they
     * get, until the finishes of all {@code ids} were answered or {@code maxMs} after {@code dueAt}. CPU is measured
     * from {@code dueAt} on.
     */
    Drain drain(String topic, Set<String> ids, long dueAt, int pullers, int pullBatch, long maxMs)
            throws InterruptedException {
        Consumers consumers = new Consumers(topic, pullers, pullBatch, ids.size());
        Delivery run = consumers.run;
        long left;
        while ((left = dueAt - System.currentTimeMillis()) > 0) {
            Thread.sleep(left);
        }
        CpuMeter.Sample cpuStart = cpu.sample();
        long deadline = dueAt + maxMs;
        while (run.finished.get() < ids.size() && System.currentTimeMillis() < deadline) {
            pause(5);
        }
        CpuMeter.Usage used = CpuMeter.between(cpuStart, cpu.sample());
        consumers.stop();

        Set<String> missing = new HashSet<>(ids);
        missing.removeAll(run.received);
        Set<String> unexpected = new HashSet<>(run.received);
        unexpected.removeAll(ids);
        return new Drain(
                consumers.lateness(),
                run.received.size(),
                run.finished.get(),
                run.duplicates.get(),
                unexpected.size(),
                missing.size(),
                run.lastFinishedAt.get(),
                consumers.gets(),
                run.pullErrors.get(),
                run.finishErrors.get(),
                run.firstError.get(),
                used);
    }

    /**
     * {@code rate} jobs/s for {@code seconds}, each due {@code minDelayMs..maxDelayMs} after its push, POST /push one
     * at a time by {@code pushers} threads.
     */
    SteadyPush steadyPush(String topic, int rate, int seconds, int pushers, int minDelayMs, int maxDelayMs)
            throws InterruptedException {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long total = (long) rate * seconds;
        long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        long startEpochMs = System.currentTimeMillis() + 100;
        AtomicLong ticket = new AtomicLong();
        List<Histogram> pushLatency = new ArrayList<>();
        List<Histogram> sendLags = new ArrayList<>();
        List<Thread> pushThreads = new ArrayList<>();
        PerSecond perSecond = new PerSecond(seconds, startEpochMs);
        for (int p = 0; p < pushers; p++) {
            Histogram latency = new Histogram();
            Histogram sendLag = new Histogram();
            pushLatency.add(latency);
            sendLags.add(sendLag);
            pushThreads.add(started("bench-pusher-", p, () -> {
                long i;
                while ((i = ticket.getAndIncrement()) < total) {
                    // job i leaves at its slot; a pusher that fell behind sends at once, so the rate catches up
                    long slot = startNs + i * 1_000_000_000L / rate;
                    PacedSchedule.awaitSlot(slot);
                    long delay = ThreadLocalRandom.current().nextLong(minDelayMs, maxDelayMs + 1L);
                    long t0 = System.nanoTime();
                    long lagMs = (t0 - slot) / 1_000_000;
                    sendLag.record(lagMs);
                    try {
                        ids.add(push(topic, delay));
                        long micros = (System.nanoTime() - t0) / 1000;
                        latency.record(micros);
                        perSecond.record((int) (i / rate), lagMs, micros);
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, "POST /push: " + e.getMessage());
                    }
                }
            }));
        }
        joinAll(pushThreads);
        double pushRate = ids.size() / ((System.nanoTime() - startNs) / 1e9);
        return new SteadyPush(
                ids,
                Histogram.merged(pushLatency),
                Histogram.merged(sendLags),
                perSecond,
                pushRate,
                errors.get(),
                firstError.get());
    }

    /** POSTs one job due {@code delayMs} from now; returns the id the gateway gave it. */
    String push(String topic, long delayMs) throws IOException {
        return JSON.readTree(send(post("/push", job(topic, delayMs))))
                .path("data")
                .asText();
    }

    /** What the pullers of one delivery run share. */
    private static final class Delivery {
        /** Sized for the jobs expected: growing a set of a million ids on the shared cores costs the gateway CPU. */
        final Set<String> received;

        final AtomicLong duplicates = new AtomicLong();
        final AtomicLong pullErrors = new AtomicLong();
        final AtomicLong finishErrors = new AtomicLong();
        final AtomicLong finishesInFlight = new AtomicLong();
        /** Jobs whose finish the gateway answered, and when the last answer came (epoch ms). */
        final AtomicLong finished = new AtomicLong();

        final AtomicLong lastFinishedAt = new AtomicLong();
        final AtomicReference<String> firstError = new AtomicReference<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicBoolean finishersStop = new AtomicBoolean();
        final LinkedBlockingQueue<Finish> finishes = new LinkedBlockingQueue<>();

        Delivery(int expectedJobs) {
            received = ConcurrentHashMap.newKeySet(expectedJobs);
        }

        void failed(AtomicLong counter, String error) {
            counter.incrementAndGet();
            firstError.compareAndSet(null, error);
        }
    }

    /** A finish call waiting for a finisher, and how many jobs it finishes. */
    private record Finish(PlainHttp.Request request, int jobs) {}

    /** The pullers and finishers of one topic, started together and stopped together. */
    private final class Consumers {
        final Delivery run;
        private final List<Puller> pullers = new ArrayList<>();
        private final List<Thread> pullThreads = new ArrayList<>();
        private final List<Thread> finishers = new ArrayList<>();

        /** The stream style's consumers, instead of pullers and finishers; null for the pull styles. */
        private final StreamConsumers streams;

        Consumers(String topic, int pullerCount, int pullBatch, int expectedJobs) {
            run = new Delivery(expectedJobs);
            if (pullBatch == ConsumerStyle.STREAM) {
                streams = new StreamConsumers(
                        nodes,
                        topic,
                        pullerCount,
                        run.received,
                        run.duplicates,
                        run.finished,
                        run.lastFinishedAt,
                        run.firstError);
                return;
            }
            streams = null;
            // pullBatch 1: GET /get/{topic}, one job per call; more: GET /get/{topic}/batch and POST /finish/batch
            String wait = "&ttr=30000&timeout=" + pollTimeoutMs;
            PlainHttp.Request get = get(
                    pullBatch == 1
                            ? "/get/" + topic + "?" + wait.substring(1)
                            : "/get/" + topic + "/batch?count=" + pullBatch + wait);
            for (int f = 0; f < FINISHERS; f++) {
                finishers.add(started("bench-finisher-", f, new Finisher(run)));
            }
            for (int p = 0; p < pullerCount; p++) {
                Puller puller = new Puller(run, get);
                pullers.add(puller);
                pullThreads.add(started("bench-puller-", p, puller));
            }
        }

        /** Ends the long-polls (up to their timeout), then the finishes still queued (up to 10 s). */
        void stop() throws InterruptedException {
            run.stop.set(true);
            if (streams != null) {
                streams.close();
                run.finishErrors.addAndGet(streams.errors());
                return;
            }
            joinAll(pullThreads);
            long finishDeadline = System.currentTimeMillis() + 10_000;
            while (run.finishesInFlight.get() > 0 && System.currentTimeMillis() < finishDeadline) {
                pause(20);
            }
            run.finishersStop.set(true);
            joinAll(finishers);
        }

        Histogram lateness() {
            if (streams != null) {
                return streams.lateness();
            }
            return Histogram.merged(pullers.stream().map(p -> p.lateness).toList());
        }

        /** For a stream every job fell due while its consumer waited: all of them count. */
        Histogram waitingLateness() {
            if (streams != null) {
                return streams.lateness();
            }
            return Histogram.merged(pullers.stream().map(p -> p.waitingLateness).toList());
        }

        long gets() {
            return pullers.stream().mapToLong(p -> p.gets).sum();
        }

        long emptyGets() {
            return pullers.stream().mapToLong(p -> p.empty).sum();
        }
    }

    /** Sends queued finishes one after the other on its own connection. */
    private final class Finisher implements Runnable {
        private final Delivery run;

        Finisher(Delivery run) {
            this.run = run;
        }

        @Override
        public void run() {
            while (!run.finishersStop.get()) {
                Finish finish;
                try {
                    finish = run.finishes.poll(50, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (finish == null) {
                    continue;
                }
                try {
                    PlainHttp.Reply reply = connection.get().exchange(finish.request());
                    if (reply.status() != 200) {
                        run.failed(run.finishErrors, "finish: HTTP " + reply.status() + " " + reply.body());
                    } else if (reply.body().contains("\"refused\":{\"")) {
                        run.failed(run.finishErrors, "finish refused: " + reply.body());
                    } else {
                        run.lastFinishedAt.accumulateAndGet(System.currentTimeMillis(), Math::max);
                        run.finished.addAndGet(finish.jobs());
                    }
                } catch (IOException e) {
                    run.failed(run.finishErrors, "finish: " + e);
                } finally {
                    run.finishesInFlight.decrementAndGet();
                }
            }
        }
    }

    /** One consumer: long-polls, records how late each job came, hands the finish to a finisher thread. */
    private final class Puller implements Runnable {
        private final Delivery run;
        private final PlainHttp.Request get;
        final Histogram lateness = new Histogram();
        final Histogram waitingLateness = new Histogram();
        long gets;
        long empty;

        Puller(Delivery run, PlainHttp.Request get) {
            this.run = run;
            this.get = get;
        }

        @Override
        public void run() {
            while (!run.stop.get()) {
                long sentAt = System.currentTimeMillis();
                long receivedAt;
                PulledJobs.Answer answer;
                try {
                    gets++;
                    String reply = send(get);
                    receivedAt = System.currentTimeMillis();
                    answer = PulledJobs.parse(reply);
                } catch (Exception e) {
                    run.failed(run.pullErrors, "GET /get: " + e.getMessage());
                    pause(100);
                    continue;
                }
                if (answer.jobs().isEmpty()) {
                    empty++;
                    continue;
                }
                List<String> ids = new ArrayList<>(answer.jobs().size());
                for (PulledJobs.Pulled each : answer.jobs()) {
                    lateness.record(receivedAt - each.due());
                    if (sentAt <= each.due()) {
                        waitingLateness.record(receivedAt - each.due());
                    }
                    if (!run.received.add(each.id())) {
                        run.duplicates.incrementAndGet();
                    }
                    ids.add(each.id());
                }
                finish(ids, answer.batch());
            }
        }

        /** Acks without waiting for the answer: GET /finish for a single pull, one POST /finish/batch for a batch. */
        private void finish(List<String> ids, boolean batch) {
            run.finishesInFlight.incrementAndGet();
            run.finishes.add(new Finish(
                    batch
                            ? post(
                                    "/finish/batch",
                                    ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]")))
                            : get("/finish?jobId=" + ids.get(0)),
                    ids.size()));
        }
    }

    /** Each client sends {@code request} until the measurement ends; a call counts in the window it completes in. */
    private Throughput closedLoop(
            String name,
            int clients,
            int warmupSeconds,
            int windowSeconds,
            int windows,
            PlainHttp.Request request,
            int jobsPerCall)
            throws InterruptedException {
        long windowNs = TimeUnit.SECONDS.toNanos(windowSeconds);
        long measureStart = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long measureEnd = measureStart + windows * windowNs;
        List<Client> stats = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Client client = new Client(windows);
            stats.add(client);
            workers.add(started("bench-" + name + "-", c, () -> {
                long t0;
                while ((t0 = System.nanoTime()) < measureEnd) {
                    String error = null;
                    try {
                        send(request);
                    } catch (Exception e) {
                        error = e.toString();
                    }
                    long t1 = System.nanoTime();
                    if (t1 >= measureStart && t1 < measureEnd) {
                        client.completed(t1 - t0, (int) ((t1 - measureStart) / windowNs), jobsPerCall, error);
                    }
                    if (error != null) {
                        pause(10);
                    }
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
            rates.add(stats.stream().mapToLong(c -> c.jobs[window]).sum() / (double) windowSeconds);
        }
        String firstError = stats.stream()
                .map(c -> c.firstError)
                .filter(e -> e != null)
                .findFirst()
                .orElse(null);
        return new Throughput(
                rates,
                windowSeconds,
                Histogram.merged(stats.stream().map(c -> c.latency).toList()),
                stats.stream().mapToLong(c -> c.calls).sum(),
                stats.stream().mapToLong(c -> c.errors).sum(),
                firstError,
                used);
    }

    /** What one closed-loop client measured; only its own thread writes it. */
    private static final class Client {
        final long[] jobs;
        final Histogram latency = new Histogram();
        long calls;
        long errors;
        String firstError;

        Client(int windows) {
            this.jobs = new long[windows];
        }

        void completed(long elapsedNs, int window, int jobsPerCall, String error) {
            calls++;
            if (error == null) {
                jobs[window] += jobsPerCall;
                latency.record(elapsedNs / 1000);
            } else {
                errors++;
                firstError = firstError == null ? error : firstError;
            }
        }
    }

    /**
     * Sends one request on this thread's connection (a fresh one, closed after, on threads the driver did not start);
     * returns the body of a 200 {"success":true...} reply and throws on anything else.
     */
    private String send(PlainHttp.Request request) throws IOException {
        PlainHttp.Reply reply;
        PlainHttp own = connection.get();
        if (own != null) {
            reply = own.exchange(request);
        } else {
            try (PlainHttp once = new PlainHttp(base)) {
                reply = once.exchange(request);
            }
        }
        if (reply.status() != 200 || !reply.body().contains("\"success\":true")) {
            String text = reply.body();
            throw new IOException("HTTP " + reply.status() + " " + text.substring(0, Math.min(200, text.length())));
        }
        return reply.body();
    }

    private PlainHttp.Request post(String path, String json) {
        return PlainHttp.Request.postJson(base, path, json);
    }

    private PlainHttp.Request get(String pathAndQuery) {
        return PlainHttp.Request.get(base, pathAndQuery);
    }

    /** A job with no id and no createTime: the gateway assigns both, as for most real callers. */
    private String job(String topic, long delayMs) {
        return "{\"topic\":\"" + topic + "\",\"delay\":" + delayMs + ",\"body\":\"" + body + "\"}";
    }

    private static String jobArray(String job, int size) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            json.append(i == 0 ? "" : ",").append(job);
        }
        return json.append(']').toString();
    }

    /**
     * Starts driver thread {@code prefix + index} ({@code prefix} starts with "bench-") on a connection of its own to
     * gateway {@code index} mod their number; the connection is closed when its work ends.
     */
    private Thread started(String prefix, int index, Runnable work) {
        URI node = nodes.get(index % nodes.size());
        Thread thread = new Thread(
                () -> {
                    connection.set(new PlainHttp(node));
                    try {
                        work.run();
                    } finally {
                        connection.get().close();
                        connection.remove();
                    }
                },
                prefix + index);
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
