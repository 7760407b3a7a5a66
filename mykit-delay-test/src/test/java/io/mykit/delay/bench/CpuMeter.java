package io.mykit.delay.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where the CPU went during a measurement, so a result can be read on a small shared machine:
 *
 * <pre>
 *  gateway  = this JVM's Java threads that are not the load driver's (HTTP, push writers, journal, timers)
 *  driver   = the bench's own threads and the JDK HTTP client's
 *  jit      = the JIT compilers' time (CompilationMXBean)
 *  gc/other = the rest of this JVM's CPU outside any Java thread: GC threads, and Java threads that ended
 *  redis, mariadb = the server processes, when this user may read them
 *  broker   = in the broker scenarios: the broker's threads in this JVM (embedded ActiveMQ) and this JVM's child
 *             processes (RocketMQ's name server and broker); a broker consumer's threads count as the driver's
 *  nodes    = in the cluster scenario: each gateway JVM's whole process; "gateway" is then this JVM's own
 *             threads besides the driver's (the ZooKeeper server)
 *  servers  = in the peer and A/B scenarios ({@link #ofServers}): named whole processes (a gateway JVM, its private
 *             Redis, MariaDB; beanstalkd), each from /proc; "bench JVM" is then this whole JVM, the load driver
 *  machine  = from /proc/stat (Linux): the share of all cores idle, and the kernel's context switches, per second
 *             and per job. A box with little idle time queues every request behind others: read a tail with it.
 * </pre>
 *
 * A Java thread that ends between two samples takes its CPU with it into "gc/other"; the scenarios keep theirs alive.
 */
final class CpuMeter {
    /** Thread names of the load driver: its own workers, the JDK HTTP client's and the stream consumers' threads. */
    private static final String[] DRIVER_THREADS = {"bench-", "HttpClient-", "mykit-delay-consumer-"};

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** The JIT compilers' time: compiler threads are not Java threads, so their CPU is otherwise unnamed. */
    private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean() != null
                    && ManagementFactory.getCompilationMXBean().isCompilationTimeMonitoringSupported()
            ? ManagementFactory.getCompilationMXBean()
            : null;

    private final Optional<ProcessHandle> redis;
    private final Optional<ProcessHandle> mariaDb;
    private final BenchBroker broker;
    private final List<ProcessHandle> nodes;
    private final Map<String, ProcessHandle> servers;

    /**
     * CPU times (ns) at one moment, per Java thread id so threads started in between still count; brokerNs is the child
     * processes' (-1 without a broker); nodeNs each gateway JVM's (empty outside the cluster scenario).
     */
    record Sample(
            long wallNs,
            long jvmNs,
            long jitMs,
            Map<Long, Long> threadNs,
            Set<Long> driverIds,
            Set<Long> brokerIds,
            long redisNs,
            long mariaDbNs,
            long brokerNs,
            long[] nodeNs,
            Map<String, Long> serverNs,
            MachineTicks machine) {}

    /** /proc/stat's counters at one moment: all cores' ticks, their idle ticks (idle + iowait), context switches. */
    record MachineTicks(long ticks, long idleTicks, long switches) {
        static final MachineTicks UNKNOWN = new MachineTicks(-1, -1, -1);

        static MachineTicks read() {
            try {
                long ticks = -1;
                long idle = -1;
                long switches = -1;
                for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                    String[] f = line.trim().split("\\s+");
                    if (f[0].equals("cpu")) {
                        ticks = 0;
                        // user nice system idle iowait irq softirq steal; guest time is already in user
                        for (int i = 1; i < Math.min(f.length, 9); i++) {
                            ticks += Long.parseLong(f[i]);
                        }
                        idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
                    } else if (f[0].equals("ctxt")) {
                        switches = Long.parseLong(f[1]);
                    }
                }
                return ticks < 0 || switches < 0 ? UNKNOWN : new MachineTicks(ticks, idle, switches);
            } catch (IOException | RuntimeException e) {
                return UNKNOWN;
            }
        }
    }

    /**
     * Average cores busy over {@code seconds}; negative = unknown (broker: no broker measured). {@code servers}: the
     * named processes' cores, in the order they were named (empty unless {@link #ofServers}).
     */
    record Usage(
            double seconds,
            double gateway,
            double driver,
            double jit,
            double gcOther,
            double redis,
            double mariaDb,
            double broker,
            double[] nodes,
            Map<String, Double> servers,
            double benchJvm,
            double machineIdle,
            double switchesPerSecond) {
        String cores() {
            if (!servers.isEmpty()) {
                return servers.entrySet().stream()
                                .map(e -> String.format(Locale.ROOT, "%s %s", e.getKey(), known(e.getValue(), 1)))
                                .collect(Collectors.joining(", "))
                        + String.format(Locale.ROOT, "; bench JVM (load driver) %.2f", benchJvm)
                        + machine();
            }
            if (nodes.length > 0) {
                return String.format(
                                Locale.ROOT,
                                "nodes %s, driver %.2f, redis %s, mariadb %s, rest of the bench"
                                        + " JVM (jit, gc; ZooKeeper in scenario 8) %.2f",
                                nodeCores(),
                                driver,
                                known(redis, 1),
                                known(mariaDb, 1),
                                gateway + jit + gcOther)
                        + machine();
            }
            return String.format(
                            Locale.ROOT,
                            "gateway %.2f, jit %.2f, gc/other %.2f, driver %.2f, redis %s, mariadb %s",
                            gateway,
                            jit,
                            gcOther,
                            driver,
                            known(redis, 1),
                            known(mariaDb, 1))
                    + (broker < 0 ? "" : String.format(Locale.ROOT, ", broker %.2f", broker))
                    + machine();
        }

        /** "; machine 12% idle, 41,200 switches/s", or nothing where /proc/stat cannot be read. */
        private String machine() {
            return machineIdle < 0
                    ? ""
                    : String.format(
                            Locale.ROOT,
                            "; machine %.0f%% idle, %,.0f switches/s",
                            machineIdle * 100,
                            switchesPerSecond);
        }

        /** CPU microseconds per job: less disturbed by other load on the machine than the rates are. */
        String perJob(long jobs) {
            double us = jobs == 0 ? 0 : seconds * 1e6 / jobs;
            if (!servers.isEmpty()) {
                String each = servers.entrySet().stream()
                        .map(e -> e.getKey() + " " + known(e.getValue(), us) + " us")
                        .collect(Collectors.joining(" + "));
                return (servers.size() > 1
                                ? each + String.format(Locale.ROOT, " = %.0f us", serversMicrosPerJob(jobs))
                                : each)
                        + (switchesPerSecond < 0 || jobs == 0
                                ? ""
                                : String.format(
                                        Locale.ROOT, "; %.1f context switches", switchesPerSecond * seconds / jobs));
            }
            if (nodes.length > 0) {
                return String.format(
                        Locale.ROOT,
                        "nodes %.0f us, redis %s us, mariadb %s us",
                        Arrays.stream(nodes).sum() * us,
                        known(redis, us),
                        known(mariaDb, us));
            }
            return String.format(
                            Locale.ROOT,
                            "gateway %.0f us, redis %s us, mariadb %s us",
                            gateway * us,
                            known(redis, us),
                            known(mariaDb, us))
                    + (broker < 0 ? "" : String.format(Locale.ROOT, ", broker %.0f us", broker * us))
                    + (switchesPerSecond < 0 || jobs == 0
                            ? ""
                            : String.format(
                                    Locale.ROOT, "; %.1f context switches", switchesPerSecond * seconds / jobs));
        }

        /** CPU microseconds per job of one named server; negative when unknown. */
        double serverMicrosPerJob(String name, long jobs) {
            double cores = servers.getOrDefault(name, -1.0);
            return cores < 0 || jobs == 0 ? -1 : cores * seconds * 1e6 / jobs;
        }

        /** CPU microseconds per job of all named servers together (the unknown ones left out). */
        double serversMicrosPerJob(long jobs) {
            return jobs == 0
                    ? 0
                    : servers.values().stream().mapToDouble(c -> Math.max(0, c)).sum() * seconds * 1e6 / jobs;
        }

        /** Each gateway JVM's cores, "0.41 + 0.38". */
        String nodeCores() {
            return Arrays.stream(nodes)
                    .mapToObj(c -> String.format(Locale.ROOT, "%.2f", c))
                    .collect(Collectors.joining(" + "));
        }

        private static String known(double cores, double scale) {
            return cores < 0 ? "?" : String.format(Locale.ROOT, scale == 1 ? "%.2f" : "%.0f", cores * scale);
        }
    }

    CpuMeter(int redisPort, int mariaDbPort) {
        this(redisServer(redisPort), mariaDbServer(mariaDbPort), null, List.of(), Map.of());
    }

    private CpuMeter(
            Optional<ProcessHandle> redis,
            Optional<ProcessHandle> mariaDb,
            BenchBroker broker,
            List<ProcessHandle> nodes,
            Map<String, ProcessHandle> servers) {
        this.redis = redis;
        this.mariaDb = mariaDb;
        this.broker = broker;
        this.nodes = nodes;
        this.servers = servers;
        if (threads.isThreadCpuTimeSupported() && !threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
    }

    /** This meter, also telling {@code broker}'s CPU apart from the gateway's. */
    CpuMeter with(BenchBroker broker) {
        return new CpuMeter(redis, mariaDb, broker, nodes, servers);
    }

    /** This meter, also measuring each of these gateway processes. */
    CpuMeter withNodes(List<ProcessHandle> gateways) {
        return new CpuMeter(redis, mariaDb, broker, List.copyOf(gateways), servers);
    }

    /**
     * A meter of whole server processes only, each named ("gateway", "redis", "mariadb"; "beanstalkd"), in this order.
     * A name missing from the window's first sample counts from 0: a process started inside the window spent all its
     * CPU in it.
     */
    static CpuMeter ofServers(Map<String, ProcessHandle> servers) {
        return new CpuMeter(
                Optional.empty(),
                Optional.empty(),
                null,
                List.of(),
                Collections.unmodifiableMap(new LinkedHashMap<>(servers)));
    }

    /** The process of the MariaDB listening on {@code port}, when this user may read it. */
    static Optional<ProcessHandle> mariaDbProcess(int port) {
        return mariaDbServer(port);
    }

    Sample sample() {
        Map<Long, Long> cpu = new HashMap<>();
        Set<Long> driver = new HashSet<>();
        Set<Long> brokerThreads = new HashSet<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            long ns = info == null ? -1 : threads.getThreadCpuTime(info.getThreadId());
            if (ns >= 0) {
                cpu.put(info.getThreadId(), ns);
                String name = info.getThreadName();
                if (isDriver(name) || broker != null && broker.isConsumerThread(name)) {
                    driver.add(info.getThreadId());
                } else if (broker != null && broker.isBrokerThread(name)) {
                    brokerThreads.add(info.getThreadId());
                }
            }
        }
        long childrenNs = broker == null
                ? -1
                : ProcessHandle.current()
                        .descendants()
                        .mapToLong(CpuMeter::cpuNs)
                        .filter(ns -> ns > 0)
                        .sum();
        long jitMs = compiler == null ? 0 : compiler.getTotalCompilationTime();
        Map<String, Long> serverNs = new LinkedHashMap<>();
        servers.forEach((name, process) -> serverNs.put(name, cpuNs(process)));
        return new Sample(
                System.nanoTime(),
                cpuNs(ProcessHandle.current()),
                jitMs,
                cpu,
                driver,
                brokerThreads,
                redis.map(CpuMeter::cpuNs).orElse(-1L),
                mariaDb.map(CpuMeter::cpuNs).orElse(-1L),
                childrenNs,
                nodes.stream().mapToLong(CpuMeter::cpuNs).toArray(),
                serverNs,
                MachineTicks.read());
    }

    static Usage between(Sample from, Sample to) {
        double wall = Math.max(1, to.wallNs() - from.wallNs());
        long javaNs = 0;
        long driverNs = 0;
        long brokerThreadNs = 0;
        for (Map.Entry<Long, Long> end : to.threadNs().entrySet()) {
            long spent = Math.max(0, end.getValue() - from.threadNs().getOrDefault(end.getKey(), 0L));
            javaNs += spent;
            if (to.driverIds().contains(end.getKey())) {
                driverNs += spent;
            } else if (to.brokerIds().contains(end.getKey())) {
                brokerThreadNs += spent;
            }
        }
        long jvmNs = to.jvmNs() - from.jvmNs();
        double jitNs = Math.min(Math.max(0, jvmNs - javaNs), (to.jitMs() - from.jitMs()) * 1e6);
        double broker = to.brokerNs() < 0 ? -1 : (brokerThreadNs + Math.max(0, to.brokerNs() - from.brokerNs())) / wall;
        double[] nodes = new double[to.nodeNs().length];
        for (int n = 0; n < nodes.length; n++) {
            nodes[n] = cores(from.nodeNs()[n], to.nodeNs()[n], wall);
        }
        Map<String, Double> servers = new LinkedHashMap<>();
        to.serverNs()
                .forEach((name, ns) -> servers.put(name, cores(from.serverNs().getOrDefault(name, 0L), ns, wall)));
        MachineTicks a = from.machine();
        MachineTicks b = to.machine();
        boolean machineKnown = a.ticks() >= 0 && b.ticks() > a.ticks();
        double idle = machineKnown ? (double) (b.idleTicks() - a.idleTicks()) / (b.ticks() - a.ticks()) : -1;
        double switches = machineKnown ? (b.switches() - a.switches()) / (wall / 1e9) : -1;
        return new Usage(
                wall / 1e9,
                (javaNs - driverNs - brokerThreadNs) / wall,
                driverNs / wall,
                jitNs / wall,
                Math.max(0, jvmNs - javaNs - jitNs) / wall,
                cores(from.redisNs(), to.redisNs(), wall),
                cores(from.mariaDbNs(), to.mariaDbNs(), wall),
                broker,
                nodes,
                servers,
                jvmNs / wall,
                idle,
                switches);
    }

    private static double cores(long from, long to, double wall) {
        return from < 0 || to < 0 ? -1 : (to - from) / wall;
    }

    /** redis-server titles itself "redis-server host:port", with its path when started by one (a private one). */
    private static Optional<ProcessHandle> redisServer(int port) {
        return ProcessHandle.allProcesses()
                .filter(p -> commandLine(p).matches("\\S*redis-server\\b.*")
                        && commandLine(p).contains(":" + port))
                .findFirst();
    }

    /** The shared MariaDB runs without --port or with this one. */
    private static Optional<ProcessHandle> mariaDbServer(int port) {
        return ProcessHandle.allProcesses()
                .filter(p -> commandLine(p).matches("\\S*(mariadbd|mysqld)\\b.*"))
                .filter(p ->
                        !commandLine(p).contains("--port=") || commandLine(p).contains("--port=" + port))
                .findFirst();
    }

    private static boolean isDriver(String threadName) {
        for (String prefix : DRIVER_THREADS) {
            if (threadName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static long cpuNs(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** The process title as the process set it (the JDK's Info.commandLine() rebuilds it from the executable). */
    private static String commandLine(ProcessHandle p) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"))
                    .replace('\0', ' ')
                    .trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
