package io.mykit.delay.test.brokers;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Main class of a child JVM that runs another program's own main class (a broker of another version, on that version's
 * jars) and reports ready once the program listens on its port. JDK classes only. Arguments: {@code readyFile port
 * mainClass [its arguments]}.
 */
final class ListeningChildMain {
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(50);

    private ListeningChildMain() {}

    public static void main(String[] args) {
        ChildSide.serve(args[2], Path.of(args[0]), () -> {
            int port = Integer.parseInt(args[1]);
            String[] programArgs = Arrays.copyOfRange(args, 3, args.length);
            Class.forName(args[2]).getMethod("main", String[].class).invoke(null, (Object) programArgs);
            awaitListening(port);
            return "127.0.0.1:" + port;
        });
    }

    private static void awaitListening(int port) throws InterruptedException {
        long deadline = System.nanoTime() + LISTEN_TIMEOUT.toNanos();
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), (int) POLL.toMillis() * 20);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("nothing listens on " + port + " after " + LISTEN_TIMEOUT, e);
                }
                Thread.sleep(POLL.toMillis());
            }
        }
    }
}
