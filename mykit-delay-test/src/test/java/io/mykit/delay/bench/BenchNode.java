package io.mykit.delay.bench;

import io.mykit.delay.MykitDelayApplication;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One gateway of the cluster scenario in a JVM of its own ({@link BenchCluster} starts it). Arguments: the file to
 * write the gateway's port to once it serves, then the gateway's own ({@code --key=value}). It halts when its stdin, a
 * pipe from the bench JVM, closes, so no gateway outlives the bench; SIGTERM stops it gracefully.
 */
public final class BenchNode {
    private BenchNode() {}

    public static void main(String[] args) throws IOException {
        haltWhenBenchExits();
        Path readyFile = Path.of(args[0]);
        ConfigurableApplicationContext context =
                new SpringApplicationBuilder(MykitDelayApplication.class).run(Arrays.copyOfRange(args, 1, args.length));
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        // written aside and moved, so the bench never reads half a port
        Path partial = readyFile.resolveSibling(readyFile.getFileName() + ".partial");
        Files.writeString(partial, Integer.toString(port), StandardCharsets.UTF_8);
        Files.move(partial, readyFile, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void haltWhenBenchExits() {
        Thread watchdog = new Thread(
                () -> {
                    InputStream in = System.in;
                    try {
                        while (in.read() >= 0) {
                            // the bench never writes; any byte is ignored
                        }
                    } catch (IOException e) {
                        e.printStackTrace();
                    }
                    Runtime.getRuntime().halt(0);
                },
                "bench-node-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
