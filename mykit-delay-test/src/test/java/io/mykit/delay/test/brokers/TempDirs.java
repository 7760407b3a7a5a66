package io.mykit.delay.test.brokers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Temp directories for broker stores and logs, each marked with the pid of the JVM that owns it.
 *
 * <p>A test JVM killed with SIGKILL cannot delete its directories; the next {@link #create} with the same prefix
 * deletes those whose owner is no longer alive.
 */
public final class TempDirs {

    private static final String OWNER_FILE = "owner.pid";
    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    private TempDirs() {}

    /** A new directory {@code <tmp>/<prefix><random>} owned by this JVM, after sweeping dead owners' ones. */
    public static Path create(String prefix) {
        deleteOrphans(prefix);
        try {
            Path dir = Files.createTempDirectory(TMP, prefix);
            Files.writeString(
                    dir.resolve(OWNER_FILE),
                    Long.toString(ProcessHandle.current().pid()),
                    StandardCharsets.UTF_8);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir " + TMP.resolve(prefix) + "*", e);
        }
    }

    /** Deletes a directory tree; a missing directory is fine. */
    public static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
        for (Path path : paths) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + path, e);
            }
        }
    }

    private static void deleteOrphans(String prefix) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(TMP, prefix + "*")) {
            for (Path dir : dirs) {
                if (isOrphan(dir)) {
                    claimAndDelete(dir);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + TMP, e);
        }
    }

    /** Renames the orphan out of the prefix's namespace first, so that two sweeping JVMs never delete the same tree. */
    private static void claimAndDelete(Path orphan) throws IOException {
        Path claimed = orphan.resolveSibling("deleting-" + orphan.getFileName() + "-"
                + ProcessHandle.current().pid());
        try {
            Files.move(orphan, claimed, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException claimedByAnotherJvm) {
            return;
        }
        deleteRecursively(claimed);
    }

    private static boolean isOrphan(Path dir) throws IOException {
        Path owner = dir.resolve(OWNER_FILE);
        if (!Files.isRegularFile(owner)) {
            // not ours, or its owner is still writing the file
            return false;
        }
        long pid =
                Long.parseLong(Files.readString(owner, StandardCharsets.UTF_8).trim());
        return ProcessHandle.of(pid).map(process -> !process.isAlive()).orElse(true);
    }
}
