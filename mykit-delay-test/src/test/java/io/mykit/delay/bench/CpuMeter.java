package io.mykit.delay.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where the CPU went during a measurement, so a result can be read on a small shared machine:
 *
 * <pre>
 *  gateway  = this JVM's Java threads that are not the load driver's (HTTP, push writers, journal, timers)
 *  driver   = the bench's own threads and the JDK HTTP client's
 *  jit/gc   = this JVM's CPU spent outside any Java thread (compiler and GC threads)
 *  redis, mariadb = the server processes, when this user may read them
 * </pre>
 *
 * A Java thread that ends between two samples takes its CPU with it into "jit/gc"; the scenarios keep theirs alive.
 */
final class CpuMeter {
    /** Thread names of the load driver: its own workers and the JDK HTTP client's threads. */
    private static final String[] DRIVER_THREADS = {"bench-", "HttpClient-"};

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Optional<ProcessHandle> redis;
    private final Optional<ProcessHandle> mariaDb;

    /** CPU times (ns) at one moment, per Java thread id so threads started in between still count. */
    record Sample(long wallNs, long jvmNs, Map<Long, Long> threadNs, Set<Long> driverIds, long redisNs,
                  long mariaDbNs) {
    }

    /** Average cores busy over {@code seconds}; negative = unknown. */
    record Usage(double seconds, double gateway, double driver, double jitGc, double redis, double mariaDb) {
        String cores() {
            return String.format(Locale.ROOT, "gateway %.2f, jit/gc %.2f, driver %.2f, redis %s, mariadb %s",
                    gateway, jitGc, driver, known(redis, 1), known(mariaDb, 1));
        }

        /** CPU microseconds per job: less disturbed by other load on the machine than the rates are. */
        String perJob(long jobs) {
            double us = jobs == 0 ? 0 : seconds * 1e6 / jobs;
            return String.format(Locale.ROOT, "gateway %.0f us, redis %s us, mariadb %s us", gateway * us,
                    known(redis, us), known(mariaDb, us));
        }

        private static String known(double cores, double scale) {
            return cores < 0 ? "?" : String.format(Locale.ROOT, scale == 1 ? "%.2f" : "%.0f", cores * scale);
        }
    }

    CpuMeter(int redisPort, int mariaDbPort) {
        // redis-server titles itself "redis-server host:port"; the shared MariaDB runs without --port or with this one
        this.redis = ProcessHandle.allProcesses()
                .filter(p -> commandLine(p).startsWith("redis-server") && commandLine(p).contains(":" + redisPort))
                .findFirst();
        this.mariaDb = ProcessHandle.allProcesses()
                .filter(p -> commandLine(p).matches("\\S*(mariadbd|mysqld)\\b.*"))
                .filter(p -> !commandLine(p).contains("--port=") || commandLine(p).contains("--port=" + mariaDbPort))
                .findFirst();
        if (threads.isThreadCpuTimeSupported() && !threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
    }

    Sample sample() {
        Map<Long, Long> cpu = new HashMap<>();
        Set<Long> driver = new HashSet<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            long ns = info == null ? -1 : threads.getThreadCpuTime(info.getThreadId());
            if (ns >= 0) {
                cpu.put(info.getThreadId(), ns);
                if (isDriver(info.getThreadName())) {
                    driver.add(info.getThreadId());
                }
            }
        }
        return new Sample(System.nanoTime(), cpuNs(ProcessHandle.current()), cpu, driver,
                redis.map(CpuMeter::cpuNs).orElse(-1L), mariaDb.map(CpuMeter::cpuNs).orElse(-1L));
    }

    static Usage between(Sample from, Sample to) {
        double wall = Math.max(1, to.wallNs() - from.wallNs());
        long javaNs = 0;
        long driverNs = 0;
        for (Map.Entry<Long, Long> end : to.threadNs().entrySet()) {
            long spent = Math.max(0, end.getValue() - from.threadNs().getOrDefault(end.getKey(), 0L));
            javaNs += spent;
            if (to.driverIds().contains(end.getKey())) {
                driverNs += spent;
            }
        }
        long jvmNs = to.jvmNs() - from.jvmNs();
        return new Usage(wall / 1e9, (javaNs - driverNs) / wall, driverNs / wall, Math.max(0, jvmNs - javaNs) / wall,
                cores(from.redisNs(), to.redisNs(), wall), cores(from.mariaDbNs(), to.mariaDbNs(), wall));
    }

    private static double cores(long from, long to, double wall) {
        return from < 0 || to < 0 ? -1 : (to - from) / wall;
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
            return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).replace('\0', ' ').trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
