package io.mykit.delay.test.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A byte-forwarding TCP proxy in front of a real server, so a test can cut the network to it ({@link #cut()}: refuse
 * new connections and drop open ones) and heal it ({@link #heal()}), or make it hang ({@link #freeze()}: connections
 * stay open but no byte moves, as with a stalled broker or a silent network) and resume ({@link #thaw()}), or slow
 * ({@link #delay}: every chunk forwarded late), without stopping a shared server.
 */
public final class TcpProxy implements AutoCloseable {
    private final int port;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Set<Socket> upstreams = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;
    private final Object frozenLock = new Object();
    private boolean frozen;
    private volatile long delayMs;

    public TcpProxy(String targetHost, int targetPort) {
        this.port = TestServers.freePort();
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        heal();
    }

    public int port() {
        return port;
    }

    /** Accepts connections again on the same port. */
    public synchronized void heal() {
        if (server != null) {
            return;
        }
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            server = socket;
        } catch (IOException e) {
            throw new IllegalStateException("proxy cannot listen on " + port, e);
        }
        Thread acceptor = new Thread(() -> acceptLoop(server), "tcp-proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Refuses new connections and drops every open one, like a network partition. */
    public synchronized void cut() {
        closeQuietly(server);
        server = null;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
        upstreams.clear();
    }

    /**
     * Local ports of this proxy's open connections to its target: a connection from any other port did not come through
     * it.
     */
    public Set<Integer> upstreamPorts() {
        upstreams.removeIf(Socket::isClosed);
        return upstreams.stream().map(Socket::getLocalPort).collect(Collectors.toSet());
    }

    /** Holds every byte in both directions (and on new connections) until {@link #thaw()}; nothing is dropped. */
    public void freeze() {
        synchronized (frozenLock) {
            frozen = true;
        }
    }

    /** Forwards the held bytes and everything after them. */
    public void thaw() {
        synchronized (frozenLock) {
            frozen = false;
            frozenLock.notifyAll();
        }
    }

    /** Forwards every chunk, either way, {@code delay} after it was read; zero forwards at once again. */
    public void delay(java.time.Duration delay) {
        delayMs = delay.toMillis();
    }

    private void awaitThawed() throws IOException {
        synchronized (frozenLock) {
            while (frozen) {
                try {
                    frozenLock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while frozen", e);
                }
            }
        }
    }

    private void acceptLoop(ServerSocket listening) {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket upstream = connectUpstream(client);
                if (upstream == null) {
                    continue;
                }
                synchronized (this) {
                    // a connection accepted while cut() ran must not slip through the partition
                    if (server != listening) {
                        closeQuietly(client);
                        closeQuietly(upstream);
                        continue;
                    }
                    open.add(client);
                    open.add(upstream);
                    upstreams.add(upstream);
                }
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (!listening.isClosed()) {
                    System.err.println("proxy " + port + ": " + e);
                }
            }
        }
    }

    // a server that is down refuses: drop the client at once, as the server would, instead of leaving it hanging
    private Socket connectUpstream(Socket client) {
        try {
            return new Socket(targetHost, targetPort);
        } catch (IOException e) {
            closeQuietly(client);
            return null;
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            awaitThawed();
                            long delay = delayMs;
                            if (delay > 0) {
                                sleep(delay);
                            }
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // one side closed: close the other so the peer sees the drop too
                        closeQuietly(to);
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "tcp-proxy-" + port);
        t.setDaemon(true);
        t.start();
    }

    private static void sleep(long ms) throws IOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while delaying", e);
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException e) {
            System.err.println("proxy close: " + e);
        }
    }

    @Override
    public void close() {
        thaw();
        cut();
    }
}
