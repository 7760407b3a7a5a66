package io.mykit.delay.bench;

import io.mykit.delay.config.DelayProperties;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Scenarios 5-7: a gateway that sends every due job to a real broker (the test harness's, started and closed here, its
 * store in a temp dir), and a consumer of that broker in this JVM.
 *
 * <ul>
 *   <li>5 (ActiveMQ) and 6 (RocketMQ), lateness: far-future jobs pending on another topic, then single pushes at a
 *       steady rate, each due 1-3 s later. Lateness to broker ack = the job's Finish time in the journal, which the
 *       gateway takes right after the broker confirmed the send, minus its due time; lateness to consumer = when the
 *       consumer got the message minus its dueTime property. Then the same broker alone at the same rate
 *       ({@link BenchBroker#pacedAlone}); the issue's target is its p99 and p99.9 plus 5 ms, to ack and to consumer.
 *   <li>7 (ActiveMQ), drain: jobs batch-pushed with one createTime and delay, so that all fall due at one instant after
 *       the push is done; drain rate = jobs / (last Finish - that instant), and the same to the consumer's last
 *       receipt. Then the broker alone, without the gateway: messages like the gateway's sent by as many producers as
 *       the gateway has senders, one synchronous send per message (as ActiveMqTarget sends) and one commit per timer
 *       batch, to tell the broker's share of the drain time from the gateway's.
 * </ul>
 *
 * <p>Before measuring, one job due at once goes the whole way (gateway, broker, consumer), so connections, routes and
 * the consumer's queue assignment are in place. Sizes: {@code -Dbench.broker.*} and {@code -Dbench.drain.*} (see
 * {@link Sizes}).
 */
final class BrokerScenario {
    private static final String PENDING_TOPIC = "bench-broker-pending";
    private static final String LATE_TOPIC = "bench-broker-late";
    private static final String DRAIN_TOPIC = "bench-broker-drain";
    /** Queue of scenario 5's broker-alone comparison. */
    private static final String PACED_QUEUE = "bench-broker-paced";
    /** Time from the warm-up drain's push to its due instant: enough to push its jobs first. */
    private static final long WARMUP_LEAD_MS = 12_000;

    private static final long PROBE_WAIT_MS = 60_000;
    private static final long JOURNAL_DRAIN_MAX_MS = 120_000;
    private static final long DELIVERY_GRACE_MS = 30_000;
    private static final long DRAIN_MAX_MS = 300_000;

    /** Starts a gateway the way the bench does for every scenario, with the given properties on top. */
    interface GatewayStarter {
        BenchGateway start(String... properties) throws Exception;
    }

    interface BrokerStarter {
        BenchBroker start();
    }

    /**
     * Sizes, from {@code -Dbench.broker.*} (scenarios 5, 6) and {@code -Dbench.drain.*} (scenario 7), defaults by the
     * size mode. 4 pushers as in the issue's harness: at 1,000 jobs/s a push may take 4 ms before the rate falls short
     * (a durable push waits for its group commit); the send lag row shows whether it did.
     */
    record Sizes(
            int pending,
            int rate,
            int seconds,
            int pushers,
            int minDelayMs,
            int maxDelayMs,
            int pacedSeconds,
            int drainJobs,
            int drainLeadSeconds,
            int drainWarmupJobs,
            int directMessages,
            boolean consumerDuringDrain) {
        static Sizes from(BenchSettings s) {
            Sizes z = new Sizes(
                    s.size("bench.broker.pending", 100_000, 1_000_000, 1_000),
                    s.size("bench.broker.rate", 1000, 1000, 200),
                    s.size("bench.broker.seconds", 30, 60, 3),
                    s.number("bench.broker.pushers", 4),
                    s.size("bench.broker.min-delay", 1000, 1000, 200),
                    s.size("bench.broker.max-delay", 3000, 3000, 500),
                    s.size("bench.broker.paced-seconds", 20, 30, 2),
                    s.size("bench.drain.jobs", 100_000, 1_000_000, 2_000),
                    // 1M jobs need about a minute to push and their journal rows longer to catch up
                    s.size("bench.drain.lead", 30, 180, 4),
                    s.size("bench.drain.warmup", 30_000, 30_000, 0),
                    s.size("bench.drain.direct", 20_000, 20_000, 300),
                    "during".equals(s.text("bench.drain.consumer", "after")));
            if (z.pending < 0
                    || z.rate < 1
                    || z.seconds < 1
                    || z.pushers < 1
                    || z.drainJobs < 1
                    || z.drainLeadSeconds < 1
                    || z.drainWarmupJobs < 0
                    || z.pacedSeconds < 1
                    || z.directMessages < 1) {
                throw new IllegalArgumentException("need bench.broker.pending >= 0, and bench.broker.rate, .seconds,"
                        + " .pushers, bench.drain.jobs and bench.drain.lead >= 1");
            }
            if (z.minDelayMs < 0 || z.maxDelayMs < z.minDelayMs) {
                throw new IllegalArgumentException("need 0 <= bench.broker.min-delay <= bench.broker.max-delay");
            }
            return z;
        }
    }

    /** The journal's Finish rows of the jobs a scenario pushed: lateness (ms past due) and first/last time. */
    private record Acks(Histogram lateness, long repeated, long first, long last) {
        static Acks of(List<BenchGateway.Finished> finished, Set<String> ids) {
            Histogram lateness = new Histogram();
            long repeated = 0;
            long first = Long.MAX_VALUE;
            long last = 0;
            for (BenchGateway.Finished f : finished) {
                if (ids.contains(f.id())) {
                    lateness.record(f.finishedAt() - f.dueTime());
                    repeated += f.times() - 1;
                    first = Math.min(first, f.finishedAt());
                    last = Math.max(last, f.finishedAt());
                }
            }
            return new Acks(lateness, repeated, first, last);
        }
    }

    private final BenchSettings settings;
    private final Sizes sizes;
    private final CpuMeter cpu;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private boolean explained;

    BrokerScenario(BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.sizes = Sizes.from(settings);
        this.cpu = cpu;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
    }

    /** Scenario 5 or 6: lateness to broker ack and to the consumer at a steady rate, with jobs pending. */
    void lateness(int number, BrokerStarter brokers, GatewayStarter gateways) throws Exception {
        Sizes z = sizes;
        progress(String.format(
                Locale.ROOT,
                "%d broker lateness: starting the broker; %,d pending, then %d jobs/s for %d s due %d-%d ms later",
                number,
                z.pending,
                z.rate,
                z.seconds,
                z.minDelayMs,
                z.maxDelayMs));
        try (BenchBroker broker = brokers.start();
                BenchGateway gateway = gateways.start(broker.gatewayProperties().toArray(String[]::new))) {
            String scenario = String.format(
                    Locale.ROOT,
                    "%d %s, %d/s, %s pending",
                    number,
                    broker.name(),
                    z.rate,
                    ReportTable.count(z.pending));
            CpuMeter meter = cpu.with(broker);
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), meter);
            double prefillRate = z.pending == 0 ? 0 : driver.prefill(PENDING_TOPIC, z.pending, settings.batchClients());
            long prefillDrainMs = gateway.awaitJournalDrained(JOURNAL_DRAIN_MAX_MS);
            Receipts receipts = new Receipts();
            broker.consume(LATE_TOPIC, receipts);
            if (!probe(number, scenario, LATE_TOPIC, driver, receipts)) {
                return;
            }
            Warmup.Limits warmupLimits = Warmup.Limits.from(settings, Bench.WARMUP_MIN_SECONDS);
            progress(number + " broker lateness: " + broker.name() + " up, " + ReportTable.count(z.pending)
                    + " pending; warming up until the JIT settles");
            Warmup.Result warmup = Warmup.untilJitSettles(meter, warmupLimits, seconds -> {
                LoadDriver.SteadyPush round =
                        driver.steadyPush(LATE_TOPIC, z.rate, seconds, z.pushers, z.minDelayMs, z.maxDelayMs);
                awaitReceived(
                        receipts, round.ids().size(), System.currentTimeMillis() + z.maxDelayMs + DELIVERY_GRACE_MS);
                receipts.clear();
            });
            progress(number + " broker lateness: pushing");

            CpuMeter.Sample cpuStart = meter.sample();
            LoadDriver.SteadyPush push =
                    driver.steadyPush(LATE_TOPIC, z.rate, z.seconds, z.pushers, z.minDelayMs, z.maxDelayMs);
            awaitReceived(receipts, push.ids().size(), System.currentTimeMillis() + z.maxDelayMs + DELIVERY_GRACE_MS);
            CpuMeter.Usage used = CpuMeter.between(cpuStart, meter.sample());
            long journalMs = gateway.awaitJournalDrained(JOURNAL_DRAIN_MAX_MS);
            Acks acks = Acks.of(gateway.finished(LATE_TOPIC), push.ids());

            // the same broker without the gateway, at the same rate: the tail the broker itself has
            progress(number + " broker lateness: now " + broker.name() + " alone at " + z.rate + "/s");
            BenchBroker.Paced alone =
                    broker.pacedAlone(PACED_QUEUE, z.rate, z.pacedSeconds, "x".repeat(settings.bodyBytes()));
            table.row(
                    scenario,
                    "lateness to broker ack p50 / p99 / p99.9 / max",
                    IssueTargets.lateness(acks.lateness()),
                    besideAlone(alone.ack()),
                    verdictBeside(acks.lateness(), alone.ack()));
            Histogram consumed = receipts.lateness(push.ids());
            table.row(
                    "",
                    "lateness to consumer p50 / p99 / p99.9 / max",
                    IssueTargets.lateness(consumed),
                    besideAlone(alone.consumer()),
                    verdictBeside(consumed, alone.consumer()));
            table.row(
                    "",
                    broker.name() + " alone, " + z.rate + "/s for " + z.pacedSeconds + " s, " + alone.how(),
                    String.format(
                            Locale.ROOT,
                            "to ack %s; to consumer %s; received %s / %s",
                            IssueTargets.lateness(alone.ack()),
                            IssueTargets.lateness(alone.consumer()),
                            ReportTable.count(alone.received()),
                            ReportTable.count(alone.sent())),
                    "all received",
                    ReportTable.verdict(alone.sent() > 0 && alone.received() == alone.sent()));
            deliveryRows(scenario, receipts, push.ids(), acks);
            Histogram latency = push.latencyMicros();
            table.row(
                    "",
                    "steady push",
                    String.format(
                            "%s jobs/s achieved by %d pushers; latency p50 / p99 %s / %s ms; send lag max %d ms",
                            ReportTable.count(push.rate()),
                            z.pushers,
                            ReportTable.micros(latency.percentile(50)),
                            ReportTable.micros(latency.percentile(99)),
                            push.sendLagMs().max()),
                    z.rate + "/s",
                    "");
            table.row("", "worst seconds of the push schedule", push.seconds().worst(3), "", "");
            table.row(
                    "",
                    "errors",
                    String.format("push %d, consumer %d", push.errors(), receipts.errors()),
                    "0",
                    ReportTable.verdict(push.errors() == 0 && receipts.errors() == 0));
            firstError(number, push.firstError());
            firstError(number, receipts.firstError());
            table.row(
                    "",
                    "prefill (batch)",
                    String.format(
                            "%s jobs at %s jobs/s; journal caught up %s",
                            ReportTable.count(z.pending), ReportTable.count(prefillRate), drained(prefillDrainMs)),
                    "",
                    "");
            table.row("", "route", route(gateway.properties(), broker), "", "");
            table.row("", "warm-up before measuring", warmup.describe(warmupLimits), "", "");
            table.row("", "CPU (cores)", used.cores(), "", "");
            table.row("", "CPU per delivered job", used.perJob(receipts.jobs()), "", "");
            table.row("", "journal lag at end", "caught up " + drained(journalMs) + " after the last receipt", "", "");
            explain();
        }
    }

    /**
     * Scenario 7: jobs that all fall due at once, and how fast the gateway hands them to ActiveMQ; then, for
     * comparison, how fast the broker alone takes messages sent as the gateway sends them, and in transactions.
     */
    void drain(int number, GatewayStarter gateways) throws Exception {
        Sizes z = sizes;
        progress(String.format(
                Locale.ROOT,
                "%d broker drain: starting the broker; %,d jobs batch-pushed, all due %d s after the push starts",
                number,
                z.drainJobs,
                z.drainLeadSeconds));
        try (BenchActiveMq broker = BenchActiveMq.start();
                BenchGateway gateway = gateways.start(broker.gatewayProperties().toArray(String[]::new))) {
            String scenario = String.format(
                    Locale.ROOT, "%d %s drain, %s due at once", number, broker.name(), ReportTable.count(z.drainJobs));
            CpuMeter meter = cpu.with(broker);
            LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), meter);
            Receipts receipts = new Receipts();
            broker.consume(DRAIN_TOPIC, receipts);
            if (!probe(number, scenario, DRAIN_TOPIC, driver, receipts)) {
                return;
            }
            long warmupMs = warmUp(number, driver, receipts);

            // by default the consumer reads the measured drain only afterwards: on these 2 shared cores its receipts
            // and acks cost the broker more CPU than the gateway's sends, and in production it runs elsewhere
            boolean consumerDuring = z.consumerDuringDrain();
            String topic = consumerDuring ? DRAIN_TOPIC : DRAIN_TOPIC + "-measured";
            Set<String> ids = ConcurrentHashMap.newKeySet();
            long createTime = System.currentTimeMillis();
            long due = createTime + z.drainLeadSeconds * 1000L;
            double pushRate =
                    driver.pushDueAt(topic, z.drainJobs, settings.batchClients(), createTime, due - createTime, ids);
            long pushedBeforeDueMs = due - System.currentTimeMillis();
            gateway.awaitJournalDrained(JOURNAL_DRAIN_MAX_MS);
            long journalBeforeDueMs = due - System.currentTimeMillis();
            progress(String.format(
                    Locale.ROOT,
                    "%d broker drain: pushed; all fall due in %.1f s",
                    number,
                    Math.max(0, journalBeforeDueMs) / 1000.0));
            sleepUntil(due);

            CpuMeter.Sample cpuStart = meter.sample();
            if (consumerDuring) {
                awaitReceived(receipts, ids.size(), due + DRAIN_MAX_MS);
            } else {
                awaitHandedOver(gateway, due + DRAIN_MAX_MS);
            }
            CpuMeter.Usage used = CpuMeter.between(cpuStart, meter.sample());
            long consumerStart = System.currentTimeMillis();
            if (!consumerDuring) {
                broker.consume(topic, receipts);
                awaitReceived(receipts, ids.size(), consumerStart + DRAIN_MAX_MS);
            }
            gateway.awaitJournalDrained(JOURNAL_DRAIN_MAX_MS);
            Acks acks = Acks.of(gateway.finished(topic), ids);

            long acked = acks.lateness().count();
            long ackMs = Math.max(1, acks.last() - due);
            double ackRate = acked * 1000.0 / ackMs;
            table.row(
                    scenario,
                    "drain to broker ack",
                    String.format(
                            Locale.ROOT,
                            "%s msg/s (%s acked; first +%s ms, last +%s ms after due)",
                            ReportTable.count(ackRate),
                            ReportTable.count(acked),
                            ReportTable.count(acked == 0 ? 0 : acks.first() - due),
                            ReportTable.count(acked == 0 ? 0 : acks.last() - due)),
                    ">= " + ReportTable.count(IssueTargets.DRAIN_PER_S) + " msg/s",
                    ReportTable.verdict(acked == ids.size() && ackRate >= IssueTargets.DRAIN_PER_S));
            long received = ids.size() - receipts.missing(ids);
            if (consumerDuring) {
                long receivedMs = Math.max(1, receipts.lastNewAt() - due);
                table.row(
                        "",
                        "drain to consumer (reading during the drain)",
                        String.format(
                                Locale.ROOT,
                                "%s msg/s (%s received; last +%s ms)",
                                ReportTable.count(received * 1000.0 / receivedMs),
                                ReportTable.count(received),
                                ReportTable.count(received == 0 ? 0 : receipts.lastNewAt() - due)),
                        "",
                        "");
            } else {
                table.row(
                        "",
                        "consumer, attached after the drain",
                        String.format(
                                Locale.ROOT,
                                "%s received in %.1f s (-Dbench.drain.consumer=during reads during the drain)",
                                ReportTable.count(received),
                                (receipts.lastNewAt() - consumerStart) / 1000.0),
                        "",
                        "");
            }
            table.row(
                    "",
                    "lateness to broker ack p50 / p99 / p99.9 / max",
                    IssueTargets.lateness(acks.lateness()),
                    "",
                    "");
            if (consumerDuring) {
                table.row(
                        "",
                        "lateness to consumer p50 / p99 / p99.9 / max",
                        IssueTargets.lateness(receipts.lateness(ids)),
                        "",
                        "");
            }
            deliveryRows(scenario, receipts, ids, acks);
            table.row(
                    "",
                    "batch push",
                    String.format(
                            Locale.ROOT,
                            "%s jobs at %s jobs/s, done %.1f s before due; journal caught up %.1f s before due",
                            ReportTable.count(ids.size()),
                            ReportTable.count(pushRate),
                            pushedBeforeDueMs / 1000.0,
                            journalBeforeDueMs / 1000.0),
                    "before due",
                    ReportTable.verdict(ids.size() == z.drainJobs && journalBeforeDueMs > 0));
            table.row("", "errors", "consumer " + receipts.errors(), "0", ReportTable.verdict(receipts.errors() == 0));
            firstError(number, receipts.firstError());
            table.row("", "route", route(gateway.properties(), broker), "", "");
            table.row(
                    "",
                    "warm-up before measuring",
                    String.format(
                            Locale.ROOT,
                            "%s jobs drained the same way in %.1f s",
                            ReportTable.count(z.drainWarmupJobs()),
                            warmupMs / 1000.0),
                    "",
                    "");
            table.row("", "CPU (cores)", used.cores(), "", "");
            table.row("", "CPU per delivered job", used.perJob(received), "", "");

            int senders = gateway.properties().getDispatch().getSenders();
            int batch = gateway.properties().getTimer().getBatchSize();
            progress(number + " broker drain: drained; now " + broker.name() + " alone");
            table.row(
                    "",
                    broker.name() + " alone (no gateway)",
                    String.format(
                            "%d producers, %s messages each way to a queue without consumer",
                            senders, ReportTable.count(z.directMessages())),
                    "",
                    "");
            Direct sync = direct(meter, broker, "bench-direct-sync", senders, 1);
            table.row("", "  one synchronous send per message", sync.describe(), "", "");
            // the gateway's shape (one commit per timer batch) with nothing else to do: no drain to it can be faster
            Direct batched = direct(meter, broker, "bench-direct-tx", senders, batch);
            table.row(
                    "",
                    "  one commit per " + batch + " (floor of the machine)",
                    batched.describe(),
                    ">= " + ReportTable.count(IssueTargets.DRAIN_PER_S) + " msg/s",
                    batched.rate() >= IssueTargets.DRAIN_PER_S ? "reachable" : "NOT ON THIS BOX");
            explain();
        }
    }

    /**
     * A smaller drain through the same path first, so the measured one runs on compiled code as a long-running gateway
     * and broker do (the JIT took most of a core through the first drain). Returns how long it took.
     */
    private long warmUp(int number, LoadDriver driver, Receipts receipts) throws Exception {
        int jobs = sizes.drainWarmupJobs();
        if (jobs == 0) {
            return 0;
        }
        long begin = System.currentTimeMillis();
        progress(String.format(Locale.ROOT, "%d broker drain: warm-up drain of %,d jobs", number, jobs));
        Set<String> ids = ConcurrentHashMap.newKeySet();
        long createTime = System.currentTimeMillis();
        long due = createTime + WARMUP_LEAD_MS;
        driver.pushDueAt(DRAIN_TOPIC, jobs, settings.batchClients(), createTime, due - createTime, ids);
        sleepUntil(due);
        awaitReceived(receipts, ids.size(), due + DRAIN_MAX_MS);
        receipts.clear();
        return System.currentTimeMillis() - begin;
    }

    /** The broker alone's rate and its CPU per message. */
    private record Direct(double rate, double brokerMicrosPerMessage) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "%s msg/s; broker CPU %.0f us per message",
                    ReportTable.count(rate),
                    brokerMicrosPerMessage);
        }
    }

    /** {@link BenchActiveMq#sendDirect} with the broker's CPU per message. */
    private Direct direct(CpuMeter meter, BenchActiveMq broker, String queue, int producers, int perCommit)
            throws Exception {
        CpuMeter.Sample before = meter.sample();
        int messages = sizes.directMessages();
        double rate = broker.sendDirect(queue, messages, producers, perCommit, "x".repeat(settings.bodyBytes()));
        CpuMeter.Usage used = CpuMeter.between(before, meter.sample());
        return new Direct(rate, used.broker() * used.seconds() * 1e6 / messages);
    }

    /**
     * One job due at once, pushed and awaited at the consumer, then forgotten; false (and a row saying so) if it did
     * not come.
     */
    private boolean probe(int number, String scenario, String topic, LoadDriver driver, Receipts receipts)
            throws Exception {
        String id = driver.push(topic, 0);
        long deadline = System.currentTimeMillis() + PROBE_WAIT_MS;
        while (!receipts.contains(id) && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        if (!receipts.contains(id)) {
            table.row(
                    scenario,
                    "probe gateway -> broker -> consumer",
                    "not received within " + PROBE_WAIT_MS / 1000 + " s",
                    "received",
                    ReportTable.verdict(false));
            firstError(number, receipts.firstError());
            return false;
        }
        receipts.clear();
        return true;
    }

    private void deliveryRows(String scenario, Receipts receipts, Set<String> ids, Acks acks) {
        long missing = receipts.missing(ids);
        long unexpected = receipts.unexpected(ids);
        arrivals.record(scenario + " (consumer)", ids.size(), ids.size() - missing + unexpected, missing, unexpected);
        table.row(
                "",
                "received / pushed",
                String.format(
                        "%s / %s; missing %d, duplicates %d, unexpected %d",
                        ReportTable.count(ids.size() - missing),
                        ReportTable.count(ids.size()),
                        missing,
                        receipts.duplicates(),
                        unexpected),
                "all (duplicates shown)",
                ReportTable.verdict(!ids.isEmpty() && missing == 0 && unexpected == 0));
        long acked = acks.lateness().count();
        table.row(
                "",
                "acked / pushed (journal Finish)",
                String.format(
                        "%s / %s; acked again %d",
                        ReportTable.count(acked), ReportTable.count(ids.size()), acks.repeated()),
                "all",
                ReportTable.verdict(!ids.isEmpty() && acked == ids.size()));
    }

    /** Waits until the gateway's Redis holds no job waiting or in flight: the broker confirmed them all. */
    private static void awaitHandedOver(BenchGateway gateway, long deadline) throws InterruptedException {
        while (gateway.waitingOrInFlight() > 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
    }

    private static void awaitReceived(Receipts receipts, int expected, long deadline) throws InterruptedException {
        while (receipts.jobs() < expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
    }

    /** The issue's target for a broker path: the broker alone's p99 and p99.9 plus the margin. */
    private static String besideAlone(Histogram alone) {
        return String.format(
                Locale.ROOT,
                "p99 <= %d, p99.9 <= %d ms (alone + %d)",
                alone.percentile(99) + IssueTargets.BROKER_MARGIN_MS,
                alone.percentile(99.9) + IssueTargets.BROKER_MARGIN_MS,
                IssueTargets.BROKER_MARGIN_MS);
    }

    private static String verdictBeside(Histogram measured, Histogram alone) {
        return ReportTable.verdict(measured.count() > 0
                && alone.count() > 0
                && measured.percentile(99) <= alone.percentile(99) + IssueTargets.BROKER_MARGIN_MS
                && measured.percentile(99.9) <= alone.percentile(99.9) + IssueTargets.BROKER_MARGIN_MS);
    }

    private static String route(DelayProperties p, BenchBroker broker) {
        return String.format(
                "every topic -> %s; %d sender threads, timer batch %d, %d buckets",
                broker.name(), p.getDispatch().getSenders(), p.getTimer().getBatchSize(), p.getBuckets());
    }

    private void explain() {
        if (!explained) {
            explained = true;
            notes.accept("broker scenarios: lateness to broker ack = the job's Finish time in the journal (taken when"
                    + " the broker confirmed the send) - its due time; lateness to consumer = when the consumer in"
                    + " this JVM got the message - its dueTime property. Drain rates count from the instant all jobs"
                    + " fell due. broker CPU = the embedded ActiveMQ's threads, or RocketMQ's child JVMs. 'alone'"
                    + " sends to the same broker with no gateway: in 5 and 6 one producer at the same rate, each"
                    + " message confirmed on its own (its lateness counts from its planned send); in 7 as many"
                    + " producers as the gateway has senders, one synchronous send per message, then one commit per"
                    + " timer batch as the gateway's ActiveMqTarget commits.");
        }
    }

    private static String drained(long ms) {
        return ms < 0
                ? "NOT within " + JOURNAL_DRAIN_MAX_MS / 1000 + " s"
                : String.format(Locale.ROOT, "in %.1f s", ms / 1000.0);
    }

    private void firstError(int scenario, String error) {
        if (error != null) {
            String line = error.replace('\n', ' ');
            notes.accept("first error in scenario " + scenario + ": "
                    + (line.length() <= 300 ? line : line.substring(0, 297) + "..."));
        }
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long left;
        while ((left = epochMs - System.currentTimeMillis()) > 0) {
            Thread.sleep(left);
        }
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
