package io.mykit.delay.test.support;

import io.mykit.delay.core.embedded.RedisProcess;
import io.mykit.delay.test.brokers.FreePorts;
import io.mykit.delay.test.brokers.TempDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * A real 3-master Redis Cluster (no replicas) of private redis-server processes, started once per test JVM and stopped
 * at its exit. It never skips: anything that goes wrong throws with the servers' logs. It always runs the system's
 * redis-server (the embedded-redis binary is 6.2, which lacks {@code cluster-port}).
 *
 * <pre>
 * dir/node-P/redis.conf, redis.log, nodes-P.conf     one directory per master P (client port)
 * dir/create.log                                     redis-cli --cluster create's output
 * </pre>
 */
public final class RedisClusterServers {

    private static final int MASTERS = 3;
    private static final long CREATE_TIMEOUT_S = 60;
    private static final long STATE_OK_TIMEOUT_MS = 20_000;

    private static RedisClusterServers cluster;

    private final Path dir;
    private final List<RedisProcess> masters;

    private RedisClusterServers(Path dir, List<RedisProcess> masters) {
        this.dir = dir;
        this.masters = masters;
    }

    /** The JVM's cluster, started by the first caller. */
    public static synchronized RedisClusterServers get() {
        if (cluster == null) {
            cluster = start();
            RedisClusterServers started = cluster;
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "redis-cluster-cleanup"));
            System.out.println("RedisClusterServers: Redis Cluster is " + started.nodesSetting());
        }
        return cluster;
    }

    /** The masters' addresses. */
    public List<HostAndPort> nodes() {
        return masters.stream()
                .map(m -> new HostAndPort(RedisProcess.HOST, m.port()))
                .toList();
    }

    /** The masters as {@code mykit.delay.redis.cluster-nodes} takes them: host:port,host:port,... */
    public String nodesSetting() {
        return nodes().stream().map(HostAndPort::toString).collect(Collectors.joining(","));
    }

    /** The master serving {@code slot}, as the cluster reports it. */
    public HostAndPort masterServing(int slot) {
        try (Jedis jedis = TestServers.jedis(nodes().get(0))) {
            for (Object range : jedis.clusterSlots()) {
                List<?> entry = (List<?>) range;
                if ((Long) entry.get(0) <= slot && slot <= (Long) entry.get(1)) {
                    List<?> master = (List<?>) entry.get(2);
                    return new HostAndPort(new String((byte[]) master.get(0)), ((Long) master.get(1)).intValue());
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }

    /**
     * Runs {@code during} while master {@code index} is killed (SIGKILL), then restarts it empty on the same port and
     * returns once every master reports cluster_state:ok, whatever {@code during} threw.
     */
    public void whileDown(int index, Runnable during) {
        RedisProcess master = masters.get(index);
        master.kill();
        try {
            during.run();
        } finally {
            try {
                master.restart();
            } catch (IOException e) {
                throw new IllegalStateException(
                        "Cannot restart " + master + ":\n"
                                + TestFiles.tail(master.dir().resolve("redis.log")),
                        e);
            }
            awaitStateOk();
        }
    }

    /** Empties every master, as a cluster that lost all its data. */
    public void flushAll() {
        for (HostAndPort node : nodes()) {
            try (Jedis jedis = TestServers.jedis(node)) {
                jedis.flushAll();
            }
        }
    }

    /** SCRIPT FLUSH on every master, as a restart would leave them (data kept). */
    public void flushScripts() {
        for (HostAndPort node : nodes()) {
            try (Jedis jedis = TestServers.jedis(node)) {
                jedis.scriptFlush();
            }
        }
    }

    /**
     * A crash of master {@code index} (SIGKILL) and its restart on the same port: it comes back empty (no persistence)
     * but with its slots (nodes-P.conf), and this returns once every master reports cluster_state:ok.
     */
    public void crashAndRestart(int index) {
        whileDown(index, () -> {});
    }

    private static RedisClusterServers start() {
        Path dir = TempDirs.create("mykit-redis-cluster-");
        Path server = RedisProcess.systemExecutable()
                .orElseThrow(() ->
                        new IllegalStateException("no redis-server on the PATH: the Redis Cluster tests need Redis >= "
                                + "7 (apt-get install redis-server)"));
        List<RedisProcess> masters = new ArrayList<>();
        try {
            for (int i = 0; i < MASTERS; i++) {
                masters.add(startMaster(server, dir));
            }
            RedisClusterServers started = new RedisClusterServers(dir, masters);
            started.create(redisCli(server));
            started.awaitStateOk();
            return started;
        } catch (IOException | RuntimeException e) {
            String logs = masters.stream()
                    .map(m -> m.dir().resolve("redis.log"))
                    .map(log -> "--- " + log + "\n" + TestFiles.tail(log))
                    .collect(Collectors.joining("\n"));
            masters.forEach(RedisProcess::stop);
            throw new IllegalStateException(
                    "Cannot start a " + MASTERS + "-master Redis Cluster with " + server + ": "
                            + e.getMessage() + "\n--- " + dir.resolve("create.log") + "\n"
                            + TestFiles.tail(dir.resolve("create.log")) + "\n" + logs,
                    e);
        }
    }

    private static RedisProcess startMaster(Path server, Path dir) throws IOException {
        int port = FreePorts.freePort();
        // the bus port is chosen, not port + 10000, which could fall in the ephemeral range
        int busPort = FreePorts.freePort();
        return RedisProcess.start(
                server,
                dir.resolve("node-" + port),
                port,
                List.of(
                        "save \"\"",
                        "appendonly no",
                        "cluster-enabled yes",
                        "cluster-config-file nodes-" + port + ".conf",
                        "cluster-port " + busPort,
                        "cluster-node-timeout 5000"));
    }

    private void create(Path cli) throws IOException {
        List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        nodes().forEach(node -> command.add(node.toString()));
        command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        Path log = dir.resolve("create.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!process.waitFor(CREATE_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        String.join(" ", command) + " did not finish in " + CREATE_TIMEOUT_S + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the Redis Cluster", e);
        }
        String output = Files.readString(log, StandardCharsets.ISO_8859_1);
        if (process.exitValue() != 0 || !output.contains("All 16384 slots covered")) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue());
        }
    }

    private void awaitStateOk() {
        long deadline = System.currentTimeMillis() + STATE_OK_TIMEOUT_MS;
        for (HostAndPort node : nodes()) {
            try (Jedis jedis = TestServers.jedis(node)) {
                String info = jedis.clusterInfo();
                while (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + MASTERS)) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException(
                                node + " not ok within " + STATE_OK_TIMEOUT_MS + " ms:\n" + info);
                    }
                    sleep(50);
                    info = jedis.clusterInfo();
                }
            }
        }
    }

    private void stop() {
        masters.forEach(RedisProcess::stop);
        TempDirs.deleteRecursively(dir);
    }

    /** redis-cli from the server's own directory, else from the PATH. */
    private static Path redisCli(Path server) {
        Path sibling = server.resolveSibling("redis-cli");
        if (Files.isExecutable(sibling)) {
            return sibling;
        }
        Optional<Path> onPath =
                List.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)).stream()
                        .filter(p -> !p.isBlank())
                        .map(p -> Path.of(p, "redis-cli"))
                        .filter(Files::isExecutable)
                        .findFirst();
        return onPath.orElseThrow(() -> new IllegalStateException("no redis-cli next to " + server
                + " nor on the PATH: the Redis Cluster tests need it (apt-get install redis-tools)"));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Redis Cluster", e);
        }
    }
}
