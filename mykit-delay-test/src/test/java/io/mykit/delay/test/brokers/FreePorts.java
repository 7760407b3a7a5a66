package io.mykit.delay.test.brokers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for test brokers that must come back on the same port.
 *
 * <p>Ports are drawn below the kernel's ephemeral range: a port from that range can be taken by an outgoing connection
 * (or a client connecting to itself) while its broker is down, and the broker could then not start again on it.
 */
public final class FreePorts {

    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LINUX_EPHEMERAL_LOW = 32768;
    private static final int LOWEST_PORT = 20000;
    private static final int ATTEMPTS = 200;
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {}

    /** A port that is free now, outside the ephemeral range. */
    public static int freePort() {
        return freePortWithNeighbours(0, 0);
    }

    /**
     * A port {@code p} such that {@code p - below .. p + above} are all free now (a RocketMQ broker listens on p, p - 2
     * and p + 1).
     */
    static int freePortWithNeighbours(int below, int above) {
        int[] share = forkShare(
                LOWEST_PORT,
                ephemeralLow() - 1,
                Integer.getInteger("mykit.test.fork", 0),
                Integer.getInteger("mykit.test.forks", 1));
        int high = share[1] - above;
        int low = share[0] + below;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int candidate = random.nextInt(low, high + 1);
            if (claim(candidate - below, candidate + above)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free port range of " + (below + above + 1) + " ports between " + low
                + " and " + high + " on 127.0.0.1 after " + ATTEMPTS + " attempts");
    }

    /** True when a server socket can bind 127.0.0.1:port now. */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, port));
            return true;
        } catch (IOException bindFailed) {
            return false;
        }
    }

    /**
     * Takes the ports if they are free now and none was handed out before in this JVM: a port is bound only later, by a
     * server started after this returns, so two calls must not return the same one (a Redis Cluster takes six).
     */
    private static synchronized boolean claim(int from, int to) {
        for (int port = from; port <= to; port++) {
            if (HANDED_OUT.contains(port)) {
                return false;
            }
        }
        if (!allFree(from, to)) {
            return false;
        }
        for (int port = from; port <= to; port++) {
            HANDED_OUT.add(port);
        }
        return true;
    }

    /**
     * Fork {@code fork} of {@code forks}' part of [low, high]: surefire's forks ({@code mykit.test.fork} of
     * {@code mykit.test.forks}, set in the pom) draw from separate parts, so one cannot take a port another has chosen
     * and not bound yet. Fork 0 (outside surefire) or a single fork: the whole range.
     */
    static int[] forkShare(int low, int high, int fork, int forks) {
        if (fork < 1 || forks < 2) {
            return new int[] {low, high};
        }
        int width = (high - low + 1) / forks;
        int part = (fork - 1) % forks;
        return new int[] {low + part * width, low + (part + 1) * width - 1};
    }

    private static boolean allFree(int from, int to) {
        for (int port = from; port <= to; port++) {
            if (!isFree(port)) {
                return false;
            }
        }
        return true;
    }

    private static int ephemeralLow() {
        if (!Files.isReadable(EPHEMERAL_RANGE)) {
            return LINUX_EPHEMERAL_LOW;
        }
        try {
            String[] range = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
            return Math.max(LOWEST_PORT + 1000, Integer.parseInt(range[0]));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + EPHEMERAL_RANGE, e);
        }
    }
}
