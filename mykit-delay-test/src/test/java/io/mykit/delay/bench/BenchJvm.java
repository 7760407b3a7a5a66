package io.mykit.delay.bench;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs the bench in a JVM of its own, started with the options the README recommends for the gateway, instead of in
 * Maven's JVM (exec:java), whose options the project cannot set. G1's default pause goal (200 ms) let young pauses
 * reach 20-40 ms every few seconds, and each of them landed in the lateness figures; with a 10 ms goal they stayed near
 * 10 ms (scenario 3, p99 18 -> 12 ms).
 */
final class BenchJvm {
    /** The gateway's recommended JVM options (README and docs/operations.md). */
    static final List<String> GATEWAY_OPTIONS = List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=10");
    /** Set in the child, so it runs the bench instead of starting another child. */
    static final String CHILD_PROPERTY = "bench.jvm.child";
    /** System properties handed to the child: the bench's sizes, gateway settings, the clients' log folders. */
    private static final List<String> FORWARDED_PREFIXES =
            List.of("bench.", "mykit.", "rocketmq.", "spring.", "logging.");

    private BenchJvm() {}

    /** Whether this JVM is the one to run the bench in ({@code -Dbench.jvm=same} keeps it in Maven's). */
    static boolean isBenchJvm() {
        return Boolean.getBoolean(CHILD_PROPERTY) || "same".equals(System.getProperty("bench.jvm"));
    }

    /** Starts {@code main} in a child JVM with this JVM's class path and bench properties; returns its exit code. */
    static int runInChild(Class<?> main, String[] args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(childOptions(System.getProperty("bench.jvm-options")));
        System.getProperties().stringPropertyNames().stream()
                .filter(key -> FORWARDED_PREFIXES.stream().anyMatch(key::startsWith))
                .sorted()
                .forEach(key -> command.add("-D" + key + "=" + System.getProperty(key)));
        command.add("-D" + CHILD_PROPERTY + "=true");
        command.add("-cp");
        command.add(classPath(main));
        command.add(main.getName());
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).inheritIO().start();
        Thread stopChild = new Thread(child::destroy, "bench-jvm-stop");
        Runtime.getRuntime().addShutdownHook(stopChild);
        try {
            return child.waitFor();
        } finally {
            Runtime.getRuntime().removeShutdownHook(stopChild);
        }
    }

    /** The bench JVM's options: {@code -Dbench.jvm-options="..."} (to compare collectors, say), else the gateway's. */
    static List<String> childOptions(String asked) {
        if (asked == null || asked.isBlank()) {
            return GATEWAY_OPTIONS;
        }
        return Arrays.stream(asked.trim().split("\\s+")).toList();
    }

    /** exec:java loads the bench through a class loader of its own: its URLs are the test class path. */
    static String classPath(Class<?> main) throws URISyntaxException {
        if (!(main.getClassLoader() instanceof URLClassLoader loader)) {
            return System.getProperty("java.class.path");
        }
        List<String> entries = new ArrayList<>();
        for (URL url : loader.getURLs()) {
            entries.add(Path.of(url.toURI()).toString());
        }
        return entries.stream().collect(Collectors.joining(File.pathSeparator));
    }
}
