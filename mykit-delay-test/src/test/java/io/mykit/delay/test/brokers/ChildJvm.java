package io.mykit.delay.test.brokers;

import io.mykit.delay.test.support.TestFiles;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started on this test JVM's classpath (or on another, for brokers of other versions) whose main class reports
 * readiness by writing a file.
 *
 * <p>Its stdin is a pipe from this JVM and its main class halts it when the pipe closes (see {@link ChildSide}), so a
 * child never outlives the test JVM, even one killed with SIGKILL. Its stdout and stderr go to a log file whose tail is
 * quoted when it fails to start.
 */
final class ChildJvm {

    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path logFile;

    private ChildJvm(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code java <jvmOptions> -cp <this classpath> <mainClass> <args>}, appending its output to
     * {@code logFile}.
     */
    static ChildJvm launch(String name, List<String> jvmOptions, Class<?> mainClass, List<String> args, Path logFile) {
        return launch(name, jvmOptions, classPath(mainClass), mainClass.getName(), args, logFile);
    }

    /** Starts {@code java <jvmOptions> -cp <classpath> <mainClass> <args>}, appending its output to {@code logFile}. */
    static ChildJvm launch(
            String name, List<String> jvmOptions, String classpath, String mainClass, List<String> args, Path logFile) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        try {
            return new ChildJvm(name, builder.start(), logFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start child JVM " + name + ": " + command, e);
        }
    }

    /**
     * Waits until the child writes {@code readyFile} and returns its content; kills the child and fails with the tail
     * of its log when it exits first or takes longer than {@code timeout}.
     */
    String awaitReady(Path readyFile, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(readyFile)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " before it was ready; log " + logFile + ":\n" + TestFiles.tail(logFile));
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new IllegalStateException(name + " was not ready within " + timeout + "; killed it; log "
                        + logFile + ":\n" + TestFiles.tail(logFile));
            }
            sleep(POLL);
        }
        try {
            return Files.readString(readyFile, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + readyFile, e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, and wait until the process is gone (its ports are free then). */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        name + " (pid " + process.pid() + ") still alive " + KILL_TIMEOUT + " after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name + " to die", e);
        }
    }

    /**
     * The classpath {@code mainClass} was loaded from. Under surefire that is the JVM's own (its manifest-only jar,
     * whose Class-Path lists the whole test classpath); under exec:java (the bench) the JVM's own is Maven's, and the
     * project's is the URLs of the class loader the plugin built.
     */
    private static String classPath(Class<?> mainClass) {
        if (!(mainClass.getClassLoader() instanceof URLClassLoader loader)) {
            return System.getProperty("java.class.path");
        }
        List<String> entries = new ArrayList<>();
        for (URL url : loader.getURLs()) {
            try {
                entries.add(Path.of(url.toURI()).toString());
            } catch (URISyntaxException e) {
                throw new IllegalStateException("classpath entry is not a file: " + url, e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
