package io.mykit.delay.test.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** File chores shared by the test servers: temp directories go away, and a failed start shows its log. */
public final class TestFiles {

    private static final int LOG_TAIL_LINES = 30;

    private TestFiles() {}

    /** Deletes a directory tree; a leftover in the temp dir is no reason to fail a test. */
    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // best effort
        }
    }

    /** The last lines of a log, for an error message. */
    public static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }
}
