package io.mykit.delay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.store.Keys;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * Gateways in cluster mode, each in a JVM of its own started as {@link BenchJvm} starts the bench (this class path, the
 * gateway's recommended options, the {@code -Dmykit.*}, {@code -Dspring.*} and {@code -Dlogging.*} properties) with
 * {@link BenchGateway}'s arguments: one Redis key prefix, one journal database, one ZooKeeper namespace, node ids n1,
 * n2, ... (the journal's host column). Their output goes to {@code logDir}, kept for a post-mortem.
 */
final class BenchCluster implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final int LOG_TAIL_LINES = 30;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> FORWARDED_PREFIXES = List.of("mykit.", "spring.", "logging.");

    /** One gateway JVM: its node id, process, log and (once it serves) base URL. */
    record Node(String id, Process process, Path log, String baseUrl) {}

    private final BenchSettings settings;
    private final String keyPrefix;
    private final List<Node> nodes;

    private BenchCluster(BenchSettings settings, String keyPrefix, List<Node> nodes) {
        this.settings = settings;
        this.keyPrefix = keyPrefix;
        this.nodes = nodes;
    }

    /**
     * Empties the journal tables, starts {@code count} gateways at once against {@code zookeeper} and returns when
     * every node sees all of them and every bucket is pumped by exactly one node.
     */
    static BenchCluster start(BenchSettings settings, String zookeeper, int count, Path logDir) throws Exception {
        BenchGateway.resetDatabase(settings);
        String prefix = BenchGateway.newKeyPrefix();
        List<Process> processes = new ArrayList<>();
        List<Path> readyFiles = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        try {
            for (int n = 1; n <= count; n++) {
                Path ready = logDir.resolve(prefix + "-n" + n + ".port");
                Path log = logDir.resolve(prefix + "-n" + n + ".log");
                processes.add(launch(settings, prefix, zookeeper, "n" + n, ready, log));
                readyFiles.add(ready);
                logs.add(log);
            }
            List<Node> nodes = new ArrayList<>();
            for (int n = 0; n < count; n++) {
                int port = awaitPort(processes.get(n), readyFiles.get(n), logs.get(n));
                nodes.add(new Node("n" + (n + 1), processes.get(n), logs.get(n), "http://127.0.0.1:" + port));
            }
            BenchCluster cluster = new BenchCluster(settings, prefix, nodes);
            cluster.awaitSettled();
            return cluster;
        } catch (Exception | Error e) {
            stop(processes);
            BenchGateway.deleteKeys(settings, prefix);
            throw e;
        }
    }

    private static Process launch(
            BenchSettings settings, String prefix, String zookeeper, String nodeId, Path readyFile, Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(BenchJvm.GATEWAY_OPTIONS);
        System.getProperties().stringPropertyNames().stream()
                .filter(key -> FORWARDED_PREFIXES.stream().anyMatch(key::startsWith))
                .sorted()
                .forEach(key -> command.add("-D" + key + "=" + System.getProperty(key)));
        command.add("-cp");
        command.add(classPath());
        command.add(BenchNode.class.getName());
        command.add(readyFile.toString());
        command.addAll(BenchGateway.arguments(
                settings,
                prefix,
                "mykit.delay.mode=cluster",
                "mykit.delay.registry.server-list=" + zookeeper,
                // the prefix is new per cluster, so the namespace is too: no layout or owners of an earlier run
                "mykit.delay.registry.namespace=" + prefix,
                "mykit.delay.registry.node-id=" + nodeId));
        // stdin stays an open pipe from this JVM: BenchNode halts when it closes
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
    }

    private static String classPath() {
        try {
            return BenchJvm.classPath(BenchNode.class);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("a class path entry is not a file", e);
        }
    }

    static int awaitPort(Process process, Path readyFile, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.exists(readyFile)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "gateway exited with " + process.exitValue() + " while starting; " + log + ":\n" + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "gateway not serving within " + START_TIMEOUT + "; " + log + ":\n" + tail(log));
            }
            Thread.sleep(100);
        }
        return Integer.parseInt(
                Files.readString(readyFile, StandardCharsets.UTF_8).trim());
    }

    /**
     * Waits until each node counts every member, the nodes' pumping buckets cover all buckets once and the owner of
     * bucket 0 has written the epoch marks: pushed to before that, its Redis-loss watch takes the jobs for lost and
     * restores them.
     */
    private void awaitSettled() throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            try {
                Map<String, List<Integer>> pumping = pumpingBuckets();
                int buckets = clusterView(nodes.get(0)).path("buckets").size();
                long pumped = pumping.values().stream().mapToLong(List::size).sum();
                long distinct = pumping.values().stream()
                        .flatMap(List::stream)
                        .distinct()
                        .count();
                boolean allMembers = true;
                for (Node node : nodes) {
                    allMembers &= clusterView(node).path("members").size() == nodes.size();
                }
                boolean epoch = epochWritten(buckets);
                if (allMembers && pumped == buckets && distinct == buckets && epoch) {
                    return;
                }
                last = "pumping " + pumping + " of " + buckets + " buckets, all members seen: " + allMembers
                        + ", epoch written: " + epoch;
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(
                "the cluster of " + nodes.size() + " did not settle within " + SETTLE_TIMEOUT + ": " + last);
    }

    private boolean epochWritten(int buckets) {
        Keys keys = new Keys(keyPrefix, buckets);
        String[] marks = new String[buckets];
        for (int b = 0; b < buckets; b++) {
            marks[b] = keys.epoch(b);
        }
        try (Jedis jedis = new Jedis(settings.redisHost(), settings.redisPort())) {
            return jedis.exists(marks) == buckets;
        }
    }

    List<Node> nodes() {
        return nodes;
    }

    List<String> baseUrls() {
        return nodes.stream().map(Node::baseUrl).toList();
    }

    List<ProcessHandle> processes() {
        return nodes.stream().map(node -> node.process().toHandle()).toList();
    }

    /** The buckets each node's timers pump now, by node id (GET /cluster of each node). */
    Map<String, List<Integer>> pumpingBuckets() throws IOException {
        Map<String, List<Integer>> pumping = new LinkedHashMap<>();
        for (Node node : nodes) {
            List<Integer> own = new ArrayList<>();
            clusterView(node).path("buckets").forEach(bucket -> {
                if (bucket.path("pumping").asBoolean()) {
                    own.add(bucket.path("bucket").asInt());
                }
            });
            pumping.put(node.id(), own);
        }
        return pumping;
    }

    private static JsonNode clusterView(Node node) throws IOException {
        URI base = URI.create(node.baseUrl());
        try (PlainHttp http = new PlainHttp(base)) {
            PlainHttp.Reply reply = http.exchange(PlainHttp.Request.get(base, "/cluster"));
            if (reply.status() != 200) {
                throw new IOException("GET /cluster on " + node.id() + ": HTTP " + reply.status() + " " + reply.body());
            }
            return JSON.readTree(reply.body()).path("data");
        }
    }

    /**
     * Hand-overs of {@code topic} per node: the journal's Ready rows by host (the node that pumped the job). Waits up
     * to {@code maxMs} for the nodes' journal writers to have written at least {@code expected} of them.
     */
    Map<String, Long> handOvers(String topic, long expected, long maxMs) throws SQLException, InterruptedException {
        long deadline = System.currentTimeMillis() + maxMs;
        Map<String, Long> byHost;
        do {
            byHost = readyRowsByHost(topic);
            if (byHost.values().stream().mapToLong(Long::longValue).sum() >= expected) {
                break;
            }
            Thread.sleep(200);
        } while (System.currentTimeMillis() < deadline);
        return byHost;
    }

    private Map<String, Long> readyRowsByHost(String topic) throws SQLException {
        Map<String, Long> byHost = new TreeMap<>();
        try (Connection connection = BenchGateway.journal(settings);
                PreparedStatement query = connection.prepareStatement("SELECT l.host, COUNT(*)"
                        + " FROM mykit_delay_queue_job j JOIN mykit_delay_queue_job_log l ON l.id = j.id"
                        + " WHERE j.topic = ? AND l.status = ? GROUP BY l.host")) {
            query.setString(1, topic);
            query.setInt(2, JobStatus.Ready.code());
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    byHost.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return byHost;
    }

    /** Jobs of {@code topic} the journal still holds as WaitPut: pushed, their Stored state not yet written. */
    long notYetStored(String topic) throws SQLException {
        try (Connection connection = BenchGateway.journal(settings);
                PreparedStatement query = connection.prepareStatement(
                        "SELECT COUNT(*) FROM mykit_delay_queue_job WHERE topic = ? AND status = ?")) {
            query.setString(1, topic);
            query.setInt(2, JobStatus.WaitPut.code());
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** SIGTERM to every node (each stops gracefully, in parallel), then removes the cluster's Redis keys. */
    @Override
    public void close() throws InterruptedException {
        try {
            stop(nodes.stream().map(Node::process).toList());
        } finally {
            BenchGateway.deleteKeys(settings, keyPrefix);
        }
    }

    private static void stop(List<Process> processes) throws InterruptedException {
        processes.forEach(Process::destroy);
        for (Process process : processes) {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
