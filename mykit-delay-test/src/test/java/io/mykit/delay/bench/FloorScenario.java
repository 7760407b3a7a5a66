package io.mykit.delay.bench;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.common.util.JobIdGenerator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Scenario 14, the floors: what this machine gives scenarios 1-3 with the gateway's own work taken away, measured with
 * the same clients, so a missed target can be told apart from a machine that cannot reach it at all.
 *
 * <ul>
 *   <li>HTTP alone: scenario 1's 16 closed-loop clients against {@link FloorServer} (Tomcat, Jackson, a queue in
 *       memory; no Redis, no journal). No durable single push on this machine can be faster.
 *   <li>Journal rows alone: scenario 2's 4 clients as JDBC threads, each committing 1,000 job rows and their 1,000 log
 *       rows per transaction into the gateway's tables (its migrations, its indexes), nothing else. No batch push that
 *       journals each job can be faster.
 *   <li>Delivery from memory: scenario 3's load (1,000/s from 4 pushers, 4 single pullers, the same pending count, the
 *       same warm-up) against {@link FloorServer}. No gateway on Tomcat is less late with these clients here.
 * </ul>
 *
 * Each row's verdict says whether the floor itself reaches the target: where it does not, the machine, not the gateway,
 * is what misses it.
 */
final class FloorScenario {
    private static final String TOPIC = "bench-floor";
    private static final int JOURNAL_ROWS_PER_COMMIT = 1_000;
    private static final long DELIVERY_GRACE_MS = 30_000;

    private final BenchSettings settings;
    private final CpuMeter cpu;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;

    FloorScenario(BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.cpu = cpu;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
    }

    /** Starts a gateway only to have its migrations create the journal tables the journal floor writes to. */
    void run(LongPollScenario.GatewayStarter startGateway) throws Exception {
        BenchSettings s = settings;
        System.out.printf(
                Locale.ROOT,
                "[bench] 14 floors: HTTP alone (%d clients, %d s warm-up, %d x %d s), journal"
                        + " rows alone (%d threads x %,d jobs per commit), delivery from memory (%d/s, %,d pending)%n",
                s.pushClients(),
                s.pushWarmupSeconds(),
                s.pushWindows(),
                s.pushWindowSeconds(),
                s.batchClients(),
                JOURNAL_ROWS_PER_COMMIT,
                s.lateRate(),
                s.latePending());
        try (FloorServer server = FloorServer.start()) {
            LoadDriver driver = new LoadDriver(server.baseUrl(), s.bodyBytes(), cpu).pollTimeout(s.pollTimeoutMs());
            httpAlone(driver);
            server.clear();
            deliveryFromMemory(server, driver);
        }
        try (BenchGateway ignored = startGateway.start()) {
            // the tables exist now; the gateway stops before the journal floor runs
        }
        BenchGateway.resetDatabase(s);
        journalAlone();
    }

    private void httpAlone(LoadDriver driver) throws InterruptedException {
        BenchSettings s = settings;
        LoadDriver.Throughput t =
                driver.singlePush(s.pushClients(), s.pushWarmupSeconds(), s.pushWindowSeconds(), s.pushWindows());
        Histogram latency = t.latencyMicros();
        table.row(
                "14 floors of this box",
                "HTTP alone, " + s.pushClients() + " clients",
                String.format(
                        Locale.ROOT,
                        "%s calls/s (median of %d x %d s; %s-%s); p50 / p99 / max %s / %s / %s ms",
                        ReportTable.count(t.median()),
                        s.pushWindows(),
                        s.pushWindowSeconds(),
                        ReportTable.count(t.min()),
                        ReportTable.count(t.max()),
                        ReportTable.micros(latency.percentile(50)),
                        ReportTable.micros(latency.percentile(99)),
                        ReportTable.micros(latency.max())),
                "1's >= " + ReportTable.count(IssueTargets.SINGLE_PUSH_PER_S) + "/s",
                floorVerdict(t.median() >= IssueTargets.SINGLE_PUSH_PER_S));
        table.row(
                "",
                "  errors",
                String.format("%d of %s calls", t.errors(), ReportTable.count(t.calls())),
                "0",
                ReportTable.verdict(t.errors() == 0));
        table.row("", "  CPU (cores)", t.cpu().cores(), "", "");
        table.row("", "  CPU per call", t.cpu().perJob(t.jobs()), "", "");
        firstError("HTTP alone", t.firstError());
    }

    private void deliveryFromMemory(FloorServer server, LoadDriver driver) throws Exception {
        BenchSettings s = settings;
        server.prefill(TOPIC, s.latePending(), s.bodyBytes());
        Warmup.Limits limits = Warmup.Limits.from(s, Bench.WARMUP_MIN_SECONDS);
        Warmup.Result warmup = Warmup.untilJitSettles(
                cpu,
                limits,
                seconds -> driver.steadyDelivery(
                        TOPIC + "-warmup",
                        s.lateRate(),
                        seconds,
                        s.latePushers(),
                        s.latePullers(),
                        1,
                        s.lateMinDelayMs(),
                        s.lateMaxDelayMs(),
                        DELIVERY_GRACE_MS));
        LoadDriver.Lateness l = driver.steadyDelivery(
                TOPIC,
                s.lateRate(),
                s.lateSeconds(),
                s.latePushers(),
                s.latePullers(),
                1,
                s.lateMinDelayMs(),
                s.lateMaxDelayMs(),
                DELIVERY_GRACE_MS);
        String scenario = String.format(
                Locale.ROOT,
                "14 delivery from memory, %d/s, %s pending",
                s.lateRate(),
                ReportTable.count(s.latePending()));
        table.row(
                "",
                String.format(
                        Locale.ROOT,
                        "delivery from memory, %d/s, %s pending: lateness p50 / p99 / p99.9 / max",
                        s.lateRate(),
                        ReportTable.count(s.latePending())),
                IssueTargets.lateness(l.latenessMs()),
                "3's " + IssueTargets.LATENESS_TARGET,
                floorVerdict(IssueTargets.latenessMet(l.latenessMs())));
        table.row("", "    when a puller was waiting", IssueTargets.lateness(l.waitingLatenessMs()), "", "");
        boolean complete = l.missing() == 0 && l.duplicates() == 0 && l.unexpected() == 0 && l.pushed() > 0;
        table.row(
                "",
                "  received / pushed",
                String.format(
                        "%s / %s; missing %d, duplicates %d, unexpected %d",
                        ReportTable.count(l.received()),
                        ReportTable.count(l.pushed()),
                        l.missing(),
                        l.duplicates(),
                        l.unexpected()),
                "all, once",
                ReportTable.verdict(complete));
        arrivals.record(scenario, l.pushed(), l.received(), l.missing(), l.unexpected());
        Histogram push = l.pushMicros();
        table.row(
                "",
                "  steady push",
                String.format(
                        Locale.ROOT,
                        "%s jobs/s by %d pushers; p50 / p99 %s / %s ms; send lag max %d ms",
                        ReportTable.count(l.pushRate()),
                        s.latePushers(),
                        ReportTable.micros(push.percentile(50)),
                        ReportTable.micros(push.percentile(99)),
                        l.sendLagMs().max()),
                "",
                "");
        long errors = l.pushErrors() + l.pullErrors() + l.finishErrors();
        table.row(
                "",
                "  errors",
                String.format("push %d, get %d, finish %d", l.pushErrors(), l.pullErrors(), l.finishErrors()),
                "0",
                ReportTable.verdict(errors == 0));
        table.row("", "  warm-up before measuring", warmup.describe(limits), "", "");
        table.row("", "  CPU (cores)", l.cpu().cores(), "", "");
        table.row("", "  CPU per delivered job", l.cpu().perJob(l.received()), "", "");
        firstError("delivery from memory", l.firstError());
    }

    /**
     * {@code batchClients} threads commit job rows and their log rows, {@value #JOURNAL_ROWS_PER_COMMIT} a transaction,
     * for the batch scenario's warm-up and windows; jobs/s per window.
     */
    private void journalAlone() throws Exception {
        BenchSettings s = settings;
        int windows = s.batchWindows();
        long windowNs = TimeUnit.SECONDS.toNanos(s.batchWindowSeconds());
        long measureStart = System.nanoTime() + TimeUnit.SECONDS.toNanos(s.batchWarmupSeconds());
        long measureEnd = measureStart + windows * windowNs;
        AtomicLong[] committed = new AtomicLong[windows];
        for (int w = 0; w < windows; w++) {
            committed[w] = new AtomicLong();
        }
        AtomicReference<String> failure = new AtomicReference<>();
        JobIdGenerator ids = new JobIdGenerator(System::currentTimeMillis);
        String body = "x".repeat(s.bodyBytes());
        List<Thread> writers = new ArrayList<>();
        for (int c = 0; c < s.batchClients(); c++) {
            Thread writer = new Thread(
                    () -> {
                        try (Connection connection = BenchGateway.journal(s)) {
                            connection.setAutoCommit(false);
                            while (System.nanoTime() < measureEnd && failure.get() == null) {
                                commitRows(connection, ids, body);
                                long done = System.nanoTime();
                                if (done >= measureStart && done < measureEnd) {
                                    committed[(int) ((done - measureStart) / windowNs)].addAndGet(
                                            JOURNAL_ROWS_PER_COMMIT);
                                }
                            }
                        } catch (SQLException e) {
                            failure.compareAndSet(null, e.toString());
                        }
                    },
                    "bench-journal-floor-" + c);
            writer.start();
            writers.add(writer);
        }
        sleepUntil(measureStart);
        CpuMeter.Sample before = cpu.sample();
        sleepUntil(measureEnd);
        CpuMeter.Usage used = CpuMeter.between(before, cpu.sample());
        for (Thread writer : writers) {
            writer.join();
        }
        List<Double> rates = new ArrayList<>();
        long jobs = 0;
        for (AtomicLong window : committed) {
            rates.add(window.get() / (double) s.batchWindowSeconds());
            jobs += window.get();
        }
        double median = Histogram.median(rates);
        table.row(
                "",
                String.format(
                        Locale.ROOT,
                        "journal rows alone, %d threads x %,d jobs per commit",
                        s.batchClients(),
                        JOURNAL_ROWS_PER_COMMIT),
                String.format(
                        Locale.ROOT,
                        "%s jobs/s (median of %d x %d s; %s-%s)",
                        ReportTable.count(median),
                        windows,
                        s.batchWindowSeconds(),
                        ReportTable.count(rates.stream()
                                .mapToDouble(Double::doubleValue)
                                .min()
                                .orElse(0)),
                        ReportTable.count(rates.stream()
                                .mapToDouble(Double::doubleValue)
                                .max()
                                .orElse(0))),
                "2's >= " + ReportTable.count(IssueTargets.BATCH_JOBS_PER_S) + "/s",
                failure.get() != null ? "FAILED" : floorVerdict(median >= IssueTargets.BATCH_JOBS_PER_S));
        table.row("", "  CPU (cores)", used.cores(), "", "");
        table.row("", "  CPU per job", used.perJob(jobs), "", "");
        firstError("journal rows alone", failure.get());
    }

    /** One transaction: the job rows and log rows a batch push of fresh jobs journals, as two multi-row INSERTs. */
    private static void commitRows(Connection connection, JobIdGenerator ids, String body) throws SQLException {
        long now = System.currentTimeMillis();
        Timestamp time = new Timestamp(now);
        List<String> batch = new ArrayList<>(JOURNAL_ROWS_PER_COMMIT);
        try (PreparedStatement jobs = connection.prepareStatement("INSERT INTO mykit_delay_queue_job (id, topic, delay,"
                        + " priority, ttl, tries, attempts, create_time, due_time, body, status, update_time)"
                        + " VALUES (?, ?, ?, 0, 0, 0, 0, ?, ?, ?, ?, ?)");
                PreparedStatement logs =
                        connection.prepareStatement("INSERT INTO mykit_delay_queue_job_log (id, status,"
                                + " thread, update_time, host) VALUES (?, ?, ?, ?, ?)")) {
            for (int i = 0; i < JOURNAL_ROWS_PER_COMMIT; i++) {
                String id = ids.next();
                batch.add(id);
                jobs.setString(1, id);
                jobs.setString(2, TOPIC);
                jobs.setLong(3, LoadDriver.FAR_DELAY_MS);
                jobs.setLong(4, now);
                jobs.setLong(5, now + LoadDriver.FAR_DELAY_MS);
                jobs.setString(6, body);
                jobs.setInt(7, JobStatus.Delay.code());
                jobs.setTimestamp(8, time);
                jobs.addBatch();
            }
            jobs.executeBatch();
            for (String id : batch) {
                logs.setString(1, id);
                logs.setInt(2, JobStatus.WaitPut.code());
                logs.setString(3, Thread.currentThread().getName());
                logs.setTimestamp(4, time);
                logs.setString(5, "bench");
                logs.addBatch();
            }
            logs.executeBatch();
        }
        connection.commit();
    }

    private static String floorVerdict(boolean reachesTarget) {
        return reachesTarget ? "reachable" : "NOT ON THIS BOX";
    }

    private void firstError(String part, String error) {
        if (error != null) {
            notes.accept("first error in scenario 14, " + part + ": " + error.replace('\n', ' '));
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
