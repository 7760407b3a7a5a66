package io.mykit.delay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.store.Keys;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * Scenario 4: rebuild Redis from a large journal. A fresh gateway (empty Redis prefix, epoch written) gets N pending
 * jobs written straight into its journal table by multi-row INSERTs, as if Redis had lost them, then one {@code GET
 * /reStore?expire=true} puts them back and a second one must find nothing to do. While the first restore runs, a
 * sampler reads the restoring thread's stack every few milliseconds, which splits its time into the phases of a page
 * (SELECT, Redis add, journal UPDATE and log INSERT) without touching the gateway.
 *
 * <p>Size: {@code -Dbench.restore.jobs} (default 1,000,000; 10,000 in quick mode). The journal tables are emptied again
 * at the end.
 */
final class RestoreScenario {
    private static final int ROWS_PER_INSERT = 2_000;
    private static final int ROWS_PER_COMMIT = 100_000;
    private static final String TOPIC = "bench-restore";
    /** The node tag part of the generated ids (the gateway draws 12 random hex digits at start-up). */
    private static final String NODE_TAG = "b3e7c0de5eed";
    /**
     * Jobs fall due over an hour that starts 15 minutes after the fill, so that none falls due while the scenario runs:
     * a due job would be moved to Ready by the gateway's timers and journaled, which is not restore work.
     */
    private static final long FIRST_DUE_MS = Duration.ofMinutes(15).toMillis();

    private static final long DUE_SPREAD_MS = Duration.ofHours(1).toMillis();
    private static final long SAMPLE_EVERY_MS = 5;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "(id, bizkey, topic, delay, priority, ttl, tries, attempts, create_time,"
            + " due_time, body, status, update_time)";
    private static final int COLUMN_COUNT = 13;

    /** Starts a gateway the way the bench does for every scenario (fresh prefix, truncated journal). */
    interface GatewayStarter {
        BenchGateway start() throws Exception;
    }

    private final BenchSettings settings;
    private final CpuMeter cpu;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final int jobs;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    RestoreScenario(BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes) {
        this.settings = settings;
        this.cpu = cpu;
        this.table = table;
        this.notes = notes;
        this.jobs = jobCount(settings);
    }

    void run(GatewayStarter starter) throws Exception {
        progress(String.format(
                Locale.ROOT, "4 restore: %,d journaled jobs into an empty Redis, then a second pass", jobs));
        try (BenchGateway gateway = starter.start()) {
            DelayProperties properties = gateway.properties();
            Keys keys = new Keys(properties.getRedis().getKeyPrefix(), properties.getBuckets());
            if (properties.getRecovery().isAuto()) {
                // with no epoch yet, the Redis-loss watch would start a restore of its own on seeing the rows
                awaitEpoch(keys);
            }

            long fillStart = System.nanoTime();
            fill(System.currentTimeMillis());
            double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
            progress(String.format(Locale.ROOT, "4 restore: journal filled in %.1f s; restoring", fillSeconds));

            long memoryBefore = usedMemory();
            double loadBefore = loadAverage();
            StackSampler sampler = new StackSampler();
            sampler.start();
            CpuMeter.Sample cpuBefore = cpu.sample();
            long started = System.nanoTime();
            Answer first = restore(gateway.baseUrl());
            long firstWallMs = (System.nanoTime() - started) / 1_000_000;
            CpuMeter.Usage usage = CpuMeter.between(cpuBefore, cpu.sample());
            sampler.stop();
            double loadAfter = loadAverage();
            long memoryAfter = usedMemory();
            long inRedis = poolSize(keys);
            Map<Integer, Long> statuses = journalStatuses();
            long logRows = count("SELECT COUNT(*) FROM mykit_delay_queue_job_log");

            progress("4 restore: first pass done; second pass");
            started = System.nanoTime();
            Answer second = restore(gateway.baseUrl());
            long secondWallMs = (System.nanoTime() - started) / 1_000_000;

            String scenario = "4 restore, " + ReportTable.count(jobs) + " jobs";
            int pageSize = properties.getRecovery().getPageSize();
            table.row(
                    scenario,
                    "restore time",
                    String.format(
                            Locale.ROOT,
                            "%.1f s wall (tookMs %s), page %s",
                            firstWallMs / 1000.0,
                            ReportTable.count(first.tookMs()),
                            ReportTable.count(pageSize)),
                    "<= " + IssueTargets.RESTORE_MS / 1000 + " s",
                    ReportTable.verdict(first.ok() && firstWallMs <= IssueTargets.RESTORE_MS));
            table.row("", "rate", ReportTable.count(jobs * 1000.0 / Math.max(1, firstWallMs)) + " jobs/s", "", "");
            table.row(
                    "",
                    "restored / scanned",
                    String.format(
                            "%s / %s; already stored %s, expired skipped %s",
                            ReportTable.count(first.restored()),
                            ReportTable.count(first.scanned()),
                            ReportTable.count(first.alreadyStored()),
                            ReportTable.count(first.skippedExpired())),
                    "= " + ReportTable.count(jobs),
                    ReportTable.verdict(first.restored() == jobs && inRedis == jobs));
            table.row(
                    "",
                    "Redis after",
                    String.format(
                            Locale.ROOT,
                            "%s jobs in the pools; used_memory %+.0f MB (%s B/job), %.0f MB in all",
                            ReportTable.count(inRedis),
                            (memoryAfter - memoryBefore) / 1048576.0,
                            ReportTable.count((memoryAfter - memoryBefore) / (double) Math.max(1, jobs)),
                            memoryAfter / 1048576.0),
                    "",
                    "");
            table.row(
                    "",
                    "journal after",
                    String.format("rows by status %s; %s log rows", describe(statuses), ReportTable.count(logRows)),
                    "",
                    "");
            table.row(
                    "",
                    "second pass",
                    String.format(
                            Locale.ROOT,
                            "%.1f s wall (tookMs %s); restored %s, already stored %s",
                            secondWallMs / 1000.0,
                            ReportTable.count(second.tookMs()),
                            ReportTable.count(second.restored()),
                            ReportTable.count(second.alreadyStored())),
                    "restored 0",
                    ReportTable.verdict(second.ok() && second.restored() == 0 && second.alreadyStored() == jobs));
            long pages = (jobs + pageSize - 1) / pageSize;
            table.row(
                    "",
                    "restoring thread",
                    "time per page of " + ReportTable.count(pageSize) + " by phase, from "
                            + ReportTable.count(sampler.samples())
                            + " stack samples (socket = waiting on MariaDB/Redis)",
                    "",
                    "");
            sampler.breakdown(first.tookMs(), pages).forEach(phase -> table.row("", "  " + phase[0], phase[1], "", ""));
            table.row("", "CPU (cores)", usage.cores(), "", "");
            table.row("", "CPU per job", usage.perJob(jobs), "", "");
            table.row(
                    "",
                    "fill (direct SQL)",
                    String.format(
                            Locale.ROOT,
                            "%s rows in %.1f s (%s rows/s), %s per INSERT, commit per %s",
                            ReportTable.count(jobs),
                            fillSeconds,
                            ReportTable.count(jobs / fillSeconds),
                            ReportTable.count(ROWS_PER_INSERT),
                            ReportTable.count(ROWS_PER_COMMIT)),
                    "",
                    "");
            table.row(
                    "",
                    "load average",
                    String.format(Locale.ROOT, "%.1f before the restore, %.1f after", loadBefore, loadAfter),
                    "",
                    "");
            first.error().ifPresent(e -> notes.accept("first /reStore failed: " + e));
            second.error().ifPresent(e -> notes.accept("second /reStore failed: " + e));
        } finally {
            // do not leave a million rows in the shared MariaDB; the next scenario truncates anyway
            truncateJournal();
        }
    }

    // ---------------------------------------------------------------- the journal

    /** Writes the pending jobs: ids in key order, due times spread at random over an hour, ~bodyBytes bodies. */
    private void fill(long now) throws SQLException {
        Random random = new Random(4);
        LocalDateTime updateTime = LocalDateTime.now();
        int fullRows = Math.min(ROWS_PER_INSERT, jobs);
        try (Connection connection = connect();
                PreparedStatement full = connection.prepareStatement(insertSql(fullRows))) {
            connection.setAutoCommit(false);
            int sinceCommit = 0;
            int next = 0;
            while (next < jobs) {
                int rows = Math.min(ROWS_PER_INSERT, jobs - next);
                PreparedStatement insert = rows == fullRows ? full : connection.prepareStatement(insertSql(rows));
                int p = 1;
                for (int i = next; i < next + rows; i++) {
                    long createTime = now - jobs + i; // one job per millisecond up to now
                    long due = now + FIRST_DUE_MS + random.nextLong(DUE_SPREAD_MS);
                    insert.setString(p++, id(createTime, i));
                    insert.setString(p++, "order-" + i);
                    insert.setString(p++, TOPIC);
                    insert.setLong(p++, due - createTime);
                    insert.setInt(p++, 0);
                    insert.setLong(p++, 0);
                    insert.setInt(p++, 0);
                    insert.setInt(p++, 0);
                    insert.setLong(p++, createTime);
                    insert.setLong(p++, due);
                    insert.setString(p++, body(i));
                    insert.setInt(p++, 1); // Delay: waiting in Redis for its due time (which Redis then lost)
                    insert.setObject(p++, updateTime);
                }
                insert.executeUpdate();
                if (insert != full) {
                    insert.close();
                }
                next += rows;
                sinceCommit += rows;
                if (sinceCommit >= ROWS_PER_COMMIT || next == jobs) {
                    connection.commit();
                    sinceCommit = 0;
                }
            }
        }
    }

    private static String insertSql(int rows) {
        StringBuilder sql = new StringBuilder("INSERT INTO mykit_delay_queue_job ")
                .append(COLUMNS)
                .append(" VALUES ");
        String tuple = "(" + "?,".repeat(COLUMN_COUNT - 1) + "?)";
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "" : ",").append(tuple);
        }
        return sql.toString();
    }

    /** 30 characters like the gateway's: 12 hex digits of milliseconds, a node tag, a 6-hex-digit counter. */
    private static String id(long createTime, int seq) {
        String millis = Long.toHexString(createTime);
        String counter = Integer.toHexString(seq & 0xFFFFFF);
        return "0".repeat(12 - millis.length()) + millis + NODE_TAG + "0".repeat(6 - counter.length()) + counter;
    }

    private String body(int i) {
        String head = "{\"orderId\":\"order-" + i + "\",\"amount\":" + (i % 10_000) + ".95,\"note\":\"";
        String tail = "\"}";
        int pad = Math.max(0, settings.bodyBytes() - head.length() - tail.length());
        StringBuilder body = new StringBuilder(head);
        for (int k = 0; k < pad; k++) {
            body.append((char) ('a' + (i + k) % 26));
        }
        return body.append(tail).toString();
    }

    private Map<Integer, Long> journalStatuses() throws SQLException {
        Map<Integer, Long> byStatus = new TreeMap<>();
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rs =
                        statement.executeQuery("SELECT status, COUNT(*) FROM mykit_delay_queue_job GROUP BY status")) {
            while (rs.next()) {
                byStatus.put(rs.getInt(1), rs.getLong(2));
            }
        }
        return byStatus;
    }

    private static String describe(Map<Integer, Long> statuses) {
        List<String> parts = new ArrayList<>();
        statuses.forEach((status, n) -> parts.add(status + ": " + ReportTable.count(n)));
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private void truncateJournal() {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute("TRUNCATE TABLE mykit_delay_queue_job");
            statement.execute("TRUNCATE TABLE mykit_delay_queue_job_log");
        } catch (SQLException e) {
            notes.accept("scenario 4 could not empty its journal tables: " + e.getMessage());
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:mysql://" + settings.mysqlHost() + ":" + settings.mysqlPort() + "/" + settings.database()
                        + "?useSSL=false&allowPublicKeyRetrieval=true",
                settings.mysqlUser(),
                settings.mysqlPassword());
    }

    // ---------------------------------------------------------------- the gateway and Redis

    /** What one {@code /reStore} answered; a failed call reads as nothing restored. */
    private record Answer(
            boolean ok,
            long scanned,
            long restored,
            long alreadyStored,
            long skippedExpired,
            long tookMs,
            Optional<String> error) {
        static Answer failed(String error) {
            return new Answer(false, 0, 0, 0, 0, 0, Optional.of(error));
        }
    }

    private Answer restore(String baseUrl) throws InterruptedException {
        // generous: a slow restore must be measured, not cut off
        Duration timeout = Duration.ofMillis(Math.max(Duration.ofMinutes(15).toMillis(), jobs));
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/reStore?expire=true"))
                .timeout(timeout)
                .GET()
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode data = JSON.readTree(response.body()).path("data");
            if (response.statusCode() != 200 || data.isMissingNode() || data.isNull()) {
                return Answer.failed("HTTP " + response.statusCode() + ": " + abbreviate(response.body()));
            }
            return new Answer(
                    true,
                    data.path("scanned").asLong(),
                    data.path("restored").asLong(),
                    data.path("alreadyStored").asLong(),
                    data.path("skippedExpired").asLong(),
                    data.path("tookMs").asLong(),
                    Optional.empty());
        } catch (IOException e) {
            return Answer.failed(e.toString());
        }
    }

    private void awaitEpoch(Keys keys) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        try (Jedis jedis = jedis()) {
            while (!jedis.exists(keys.epoch(keys.buckets() - 1))) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(
                            "the gateway wrote no epoch key " + keys.epoch(keys.buckets() - 1) + " in 30 s");
                }
                Thread.sleep(50);
            }
        }
    }

    private long poolSize(Keys keys) {
        try (Jedis jedis = jedis()) {
            Pipeline pipe = jedis.pipelined();
            List<Response<Long>> sizes = new ArrayList<>(keys.buckets());
            for (int b = 0; b < keys.buckets(); b++) {
                sizes.add(pipe.hlen(keys.pool(b)));
            }
            pipe.sync();
            return sizes.stream().mapToLong(Response::get).sum();
        }
    }

    private long usedMemory() {
        try (Jedis jedis = jedis()) {
            return jedis.info("memory")
                    .lines()
                    .filter(line -> line.startsWith("used_memory:"))
                    .mapToLong(line -> Long.parseLong(
                            line.substring("used_memory:".length()).trim()))
                    .findFirst()
                    .orElse(0);
        }
    }

    private Jedis jedis() {
        return new Jedis(settings.redisHost(), settings.redisPort());
    }

    // ---------------------------------------------------------------- where the restoring thread spends its time

    /**
     * Samples the stack of whichever thread is inside {@code RecoveryService.restore} and names the phase from the
     * innermost frame it recognises; "on the socket" = the thread was reading or writing its connection (waiting for
     * MariaDB or Redis), the rest is this JVM's own work in that phase (building SQL, mapping rows, JSON).
     */
    private static final class StackSampler implements Runnable {
        /** Innermost match wins: {frame class contains, frame method or "*", phase}. */
        private static final String[][] PHASES = {
            {"JobMapper", "updateStatus", "journal UPDATE"},
            {"$Proxy", "updateStatus", "journal UPDATE"},
            {"MultiRowInsert", "*", "log INSERT"},
            {"JobLogMapper", "insertAll", "log INSERT"},
            {"$Proxy", "insertAll", "log INSERT"},
            {"TransactionManager", "commit", "commit"},
            {"TransactionManager", "processCommit", "commit"},
            {"MybatisJournal", "findPendingAfter", "SELECT page"},
            {"RedisDelayStore", "add", "Redis add"},
            {"StateChangeWriter", "flush", "writer flush"},
            {"MybatisJournal", "apply", "journal other"},
        };

        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final Map<String, long[]> samples = new LinkedHashMap<>(); // phase -> {all, on the socket}
        private final Thread thread = new Thread(this, "bench-restore-sampler");
        private volatile boolean running = true;
        private long total;

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        @Override
        public void run() {
            long restoring = -1;
            while (running) {
                if (restoring < 0) {
                    restoring = findRestoringThread();
                } else {
                    ThreadInfo info = threads.getThreadInfo(restoring, Integer.MAX_VALUE);
                    if (info == null) {
                        restoring = -1;
                    } else {
                        record(info.getStackTrace());
                    }
                }
                try {
                    Thread.sleep(SAMPLE_EVERY_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private long findRestoringThread() {
            for (ThreadInfo info : threads.dumpAllThreads(false, false)) {
                if (inRestore(info.getStackTrace())) {
                    return info.getThreadId();
                }
            }
            return -1;
        }

        private static boolean inRestore(StackTraceElement[] stack) {
            for (StackTraceElement frame : stack) {
                if (frame.getClassName().endsWith("RecoveryService")
                        && frame.getMethodName().equals("restore")) {
                    return true;
                }
            }
            return false;
        }

        private void record(StackTraceElement[] stack) {
            if (!inRestore(stack)) {
                return; // between requests, or the restore is over
            }
            String phase = "other";
            search:
            for (StackTraceElement frame : stack) {
                for (String[] p : PHASES) {
                    if (frame.getClassName().contains(p[0])
                            && (p[1].equals("*") || frame.getMethodName().equals(p[1]))) {
                        phase = p[2];
                        break search;
                    }
                }
            }
            boolean socket = stack.length > 0 && stack[0].getClassName().startsWith("sun.nio.ch.");
            long[] n = samples.computeIfAbsent(phase, k -> new long[2]);
            n[0]++;
            n[1] += socket ? 1 : 0;
            total++;
        }

        long samples() {
            return total;
        }

        /** {phase, "196 ms = 49% (socket 44%)"} per phase, most time first, over {@code pages} pages. */
        List<String[]> breakdown(long tookMs, long pages) {
            List<Map.Entry<String, long[]>> phases = new ArrayList<>(samples.entrySet());
            phases.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
            List<String[]> rows = new ArrayList<>();
            for (Map.Entry<String, long[]> e : phases) {
                double share = (double) e.getValue()[0] / total;
                rows.add(new String[] {
                    e.getKey(),
                    String.format(
                            Locale.ROOT,
                            "%.0f ms = %.0f%% (socket %.0f%%)",
                            share * tookMs / Math.max(1, pages),
                            100 * share,
                            100.0 * e.getValue()[1] / total)
                });
            }
            return rows;
        }
    }

    // ---------------------------------------------------------------- helpers

    private static int jobCount(BenchSettings settings) {
        int n = settings.size("bench.restore.jobs", 1_000_000, 1_000_000, 10_000);
        if (n < 1 || n > 16_000_000) {
            throw new IllegalArgumentException("bench.restore.jobs must be 1..16000000, was " + n);
        }
        return n;
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 297) + "...";
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
