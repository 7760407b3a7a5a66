package io.mykit.delay.test.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Main class of the relay {@link NetworkNamespace} runs inside its namespace: for each target port, a listening port on
 * the namespace's address whose connections it joins to that port of the host. JDK classes only. Arguments:
 * {@code readyFile listenAddress targetAddress targetPort...}; the ready file gets the listening ports.
 */
public final class NamespaceRelay {

    private NamespaceRelay() {}

    public static void main(String[] args) throws IOException {
        String listen = args[1];
        String target = args[2];
        List<String> ports = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(listen, 0));
            ports.add(Integer.toString(server.getLocalPort()));
            int targetPort = Integer.parseInt(args[i]);
            daemon("accept-" + targetPort, () -> accept(server, target, targetPort));
        }
        Path ready = Path.of(args[0]);
        Path partial = ready.resolveSibling(ready.getFileName() + ".partial");
        Files.writeString(partial, String.join(",", ports), StandardCharsets.UTF_8);
        Files.move(partial, ready, StandardCopyOption.ATOMIC_MOVE);
        // the test JVM holds the other end of stdin: when it goes, so does the relay
        while (System.in.read() >= 0) {
            // nothing is ever written
        }
        Runtime.getRuntime().halt(0);
    }

    private static void accept(ServerSocket server, String target, int targetPort) {
        while (true) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(target, targetPort);
                AtomicInteger ended = new AtomicInteger();
                daemon("up", () -> pump(client, upstream, ended));
                daemon("down", () -> pump(upstream, client, ended));
            } catch (IOException e) {
                e.printStackTrace();
            }
        }
    }

    /** Copies until {@code from} ends and passes the end on; the second direction to end closes both sockets. */
    private static void pump(Socket from, Socket to, AtomicInteger ended) {
        boolean failed = false;
        try {
            from.getInputStream().transferTo(to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException e) {
            System.err.println("relay: " + e);
            failed = true;
        }
        if (ended.incrementAndGet() == 2 || failed) {
            close(from);
            close(to);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            System.err.println("relay: closing: " + e);
        }
    }

    private static void daemon(String name, Runnable work) {
        Thread thread = new Thread(work, "relay-" + name);
        thread.setDaemon(true);
        thread.start();
    }
}
