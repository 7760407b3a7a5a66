package io.mykit.delay.test.brokers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The child JVM's half of {@link ChildJvm}: it halts when the test JVM goes away and reports readiness in a file. JDK
 * classes only, so it also runs on the classpath of brokers of other versions.
 */
final class ChildSide {

    private ChildSide() {}

    /** Starts what a child main runs and returns the address it serves on. */
    interface Server {
        String start() throws Exception;
    }

    /**
     * The whole life of a child main: halt with the parent, start the server, announce its address in the ready file;
     * on any failure print it (the parent quotes the child's log) and halt with code 1.
     */
    static void serve(String what, Path readyFile, Server server) {
        try {
            haltWhenParentExits();
            String address = server.start();
            announce(readyFile, address);
            System.out.println("READY " + what + " " + address);
        } catch (Throwable e) {
            e.printStackTrace();
            Runtime.getRuntime().halt(1);
        }
    }

    /**
     * Halts this JVM when its stdin, a pipe from the test JVM, reaches end of file, so a child never outlives the test
     * JVM, even one killed with SIGKILL.
     */
    private static void haltWhenParentExits() {
        Thread watchdog = new Thread(
                () -> {
                    InputStream in = System.in;
                    try {
                        while (in.read() >= 0) {
                            // the parent never writes; any byte is ignored
                        }
                    } catch (IOException e) {
                        e.printStackTrace();
                    }
                    Runtime.getRuntime().halt(0);
                },
                "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** Writes {@code address} to the ready file in one move, so the parent never reads half of it. */
    private static void announce(Path readyFile, String address) {
        Path partial = readyFile.resolveSibling(readyFile.getFileName() + ".partial");
        try {
            Files.writeString(partial, address, StandardCharsets.UTF_8);
            Files.move(partial, readyFile, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + readyFile, e);
        }
    }
}
