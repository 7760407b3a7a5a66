package io.mykit.delay.bench;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Scenario 11: Redis bytes per pending job. A private redis-server (nothing else writes to it, so INFO's used_memory
 * moves only with the gateway's keys) gets a fresh gateway; N far-future jobs with bodyBytes-byte bodies are
 * batch-pushed to one topic, and used_memory after - before, over N, is the cost of a pending job; less its body, what
 * the gateway adds. Then MEMORY USAGE (SAMPLES 0: every element counted) of each of the gateway's keys, summed by kind
 * (due slices, job HASH, counters...), shows where the bytes go.
 *
 * <p>Size: {@code -Dbench.memory.jobs} (1,000,000; 5,000 quick).
 */
final class MemoryScenario {
    private static final String TOPIC = "bench-memory";
    private static final long JOURNAL_MAX_MS = 300_000;

    private final BenchSettings settings;
    private final CpuMeter cpu;
    private final ReportTable table;
    private final Consumer<String> notes;
    private final Arrivals arrivals;
    private final int jobs;

    MemoryScenario(BenchSettings settings, CpuMeter cpu, ReportTable table, Consumer<String> notes, Arrivals arrivals) {
        this.settings = settings;
        this.cpu = cpu;
        this.table = table;
        this.notes = notes;
        this.arrivals = arrivals;
        this.jobs = settings.size("bench.memory.jobs", 1_000_000, 1_000_000, 5_000);
        if (jobs < 1) {
            throw new IllegalArgumentException("bench.memory.jobs must be >= 1");
        }
    }

    void run() throws Exception {
        progress(String.format(
                Locale.ROOT,
                "11 Redis memory: a private redis-server, %,d jobs of %d-byte bodies",
                jobs,
                settings.bodyBytes()));
        try (OwnRedis redis = TestServers.startOwnRedis()) {
            BenchSettings own = settings.withRedis(redis.host(), redis.port());
            try (BenchGateway gateway = BenchGateway.start(own)) {
                DelayProperties properties = gateway.properties();
                Keys keys = new Keys(properties.getRedis().getKeyPrefix(), properties.getBuckets());
                LoadDriver driver = new LoadDriver(gateway.baseUrl(), settings.bodyBytes(), cpu);
                try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                    long before = usedMemory(jedis);
                    double pushRate = driver.prefill(TOPIC, jobs, settings.batchClients());
                    long journalMs = gateway.awaitJournalDrained(JOURNAL_MAX_MS);
                    long after = usedMemory(jedis);
                    long inPools = 0;
                    for (int b = 0; b < keys.buckets(); b++) {
                        inPools += jedis.hlen(keys.pool(b));
                    }
                    report(
                            jedis,
                            keys,
                            properties.getRedis().getKeyPrefix(),
                            before,
                            after,
                            inPools,
                            pushRate,
                            journalMs,
                            redis);
                }
            }
        }
    }

    private void report(
            Jedis jedis,
            Keys keys,
            String keyPrefix,
            long before,
            long after,
            long inPools,
            double pushRate,
            long journalMs,
            OwnRedis redis) {
        String scenario = "11 Redis memory, " + ReportTable.count(jobs) + " pending";
        double perJob = (after - before) / (double) jobs;
        double beyondBody = perJob - settings.bodyBytes();
        table.row(
                scenario,
                "used_memory per pending job",
                String.format(
                        Locale.ROOT,
                        "%s B in all, %s B beyond the %d-byte body (used_memory %+.1f MB)",
                        ReportTable.count(perJob),
                        ReportTable.count(beyondBody),
                        settings.bodyBytes(),
                        (after - before) / 1048576.0),
                "<= " + ReportTable.count(IssueTargets.REDIS_BYTES_BEYOND_BODY) + " B beyond body",
                ReportTable.verdict(inPools == jobs && beyondBody <= IssueTargets.REDIS_BYTES_BEYOND_BODY));
        long missing = Math.max(0, jobs - inPools);
        long extra = Math.max(0, inPools - jobs);
        table.row(
                "",
                "jobs in the pools / pushed",
                ReportTable.count(inPools) + " / " + ReportTable.count(jobs),
                "all",
                ReportTable.verdict(inPools == jobs));
        arrivals.record(scenario, jobs, inPools, missing, extra);

        Map<String, long[]> byKind = usageByKind(jedis, keyPrefix);
        long summed = byKind.values().stream().mapToLong(kind -> kind[1]).sum();
        table.row(
                "",
                "MEMORY USAGE by key kind (SAMPLES 0)",
                String.format(
                        Locale.ROOT,
                        "%s B over %d keys = %s B per job",
                        ReportTable.count(summed),
                        byKind.values().stream().mapToLong(kind -> kind[0]).sum(),
                        ReportTable.count(summed / (double) jobs)),
                "",
                "");
        byKind.forEach((kind, figures) -> table.row(
                "",
                "  " + kind,
                String.format(
                        Locale.ROOT,
                        "%s B in %d keys, %s B per job",
                        ReportTable.count(figures[1]),
                        figures[0],
                        ReportTable.count(figures[1] / (double) jobs)),
                "",
                ""));
        String sampleRecord = jedis.hrandfield(keys.pool(0));
        if (sampleRecord != null) {
            String record = jedis.hget(keys.pool(0), sampleRecord);
            table.row(
                    "",
                    "one job record (HASH field + value)",
                    String.format(
                            Locale.ROOT,
                            "id %d B + JSON %d B (body %d B)",
                            sampleRecord.length(),
                            record.length(),
                            settings.bodyBytes()),
                    "",
                    "");
        }
        table.row(
                "",
                "Redis",
                String.format(
                        Locale.ROOT,
                        "private %s on port %d, %s, %s; %s",
                        infoField(jedis.info("server"), "redis_version"),
                        redis.port(),
                        infoField(jedis.info("memory"), "mem_allocator"),
                        "hash-max-listpack-entries " + configValue(jedis, "hash-max-listpack-entries")
                                + ", zset-max-listpack-entries " + configValue(jedis, "zset-max-listpack-entries"),
                        keys.buckets() + " buckets"),
                "",
                "");
        table.row(
                "",
                "batch push",
                String.format(
                        Locale.ROOT,
                        "%s jobs/s; journal caught up %s",
                        ReportTable.count(pushRate),
                        journalMs < 0
                                ? "NOT within " + JOURNAL_MAX_MS / 1000 + " s"
                                : String.format(Locale.ROOT, "in %.1f s", journalMs / 1000.0)),
                "",
                "");
        notes.accept("scenario 11: used_memory is what Redis' allocator holds for data; beyond body = per job minus"
                + " the body's bytes. The kinds are the part of each key after its {prefix:bucket} tag; their sum"
                + " leaves out Redis' own dictionary of keys, which the used_memory delta includes.");
    }

    /** MEMORY USAGE of every key of this gateway, summed by kind: {keys, bytes}. */
    private static Map<String, long[]> usageByKind(Jedis jedis, String keyPrefix) {
        Map<String, long[]> byKind = new TreeMap<>();
        ScanParams match = new ScanParams().match("*" + keyPrefix + "*").count(1000);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = jedis.scan(cursor, match);
            for (String key : page.getResult()) {
                Long bytes = jedis.memoryUsage(key, 0);
                long[] kind = byKind.computeIfAbsent(kindOf(key) + " (" + jedis.type(key) + ")", k -> new long[2]);
                kind[0]++;
                kind[1] += bytes == null ? 0 : bytes;
            }
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return byKind;
    }

    /** "{p:b3}:due:17" -> "due:*" (the slices), "{p:b3}:ready:t" -> "ready:t", "{p}:layout" -> "layout". */
    private static String kindOf(String key) {
        int tagEnd = key.indexOf("}:");
        String kind = tagEnd < 0 ? key : key.substring(tagEnd + 2);
        return kind.matches("due:\\d+") ? "due:*" : kind;
    }

    private static long usedMemory(Jedis jedis) {
        return Long.parseLong(infoField(jedis.info("memory"), "used_memory"));
    }

    private static String infoField(String info, String field) {
        return info.lines()
                .filter(line -> line.startsWith(field + ":"))
                .map(line -> line.substring(field.length() + 1).trim())
                .findFirst()
                .orElse("?");
    }

    private static String configValue(Jedis jedis, String name) {
        Map<String, String> value = jedis.configGet(name);
        return value.getOrDefault(name, "?");
    }

    private static void progress(String message) {
        System.out.println("[bench] " + message);
    }
}
