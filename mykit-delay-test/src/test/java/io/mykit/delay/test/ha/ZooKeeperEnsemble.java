package io.mykit.delay.test.ha;

import io.mykit.delay.test.support.TestServers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * Three real ZooKeeper quorum peers (curator-test) in the test JVM, with a short tick so that sessions expire within
 * seconds. Servers are numbered 0..2; each can be killed and restarted on its ports and data.
 */
final class ZooKeeperEnsemble implements AutoCloseable {

    static final int SERVERS = 3;
    static final Duration TICK = Duration.ofMillis(200);
    // ZooKeeper grants a session timeout only between these multiples of its tick
    private static final int MIN_SESSION_TICKS = 2;
    private static final int MAX_SESSION_TICKS = 30;
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    private static final String NOT_SERVING = "not serving";
    // a line of the four-letter word cons: " /127.0.0.1:56184[1](queued=0,...)"
    private static final Pattern CONNECTION = Pattern.compile("/127\\.0\\.0\\.1:(\\d+)\\[");

    private final TestingCluster cluster;
    private final List<InstanceSpec> specs;
    private final boolean[] up = new boolean[SERVERS];

    private ZooKeeperEnsemble(TestingCluster cluster, List<InstanceSpec> specs) {
        this.cluster = cluster;
        this.specs = specs;
    }

    /** Starts the three peers and waits until each one serves clients. */
    static ZooKeeperEnsemble start() throws Exception {
        // its admin server would take port 8080 (Jetty is on the test classpath)
        System.setProperty("zookeeper.admin.enableServer", "false");
        List<InstanceSpec> specs = new ArrayList<>();
        for (int id = 1; id <= SERVERS; id++) {
            specs.add(new InstanceSpec(
                    null,
                    -1,
                    -1,
                    -1,
                    true,
                    id,
                    (int) TICK.toMillis(),
                    -1,
                    Map.of(
                            "admin.enableServer",
                            "false",
                            "4lw.commands.whitelist",
                            "srvr,cons",
                            "maxSessionTimeout",
                            String.valueOf(TICK.toMillis() * MAX_SESSION_TICKS)),
                    TestServers.LOCALHOST));
        }
        ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(new TestingCluster(specs), specs);
        ensemble.cluster.start();
        Arrays.fill(ensemble.up, true);
        ensemble.awaitQuorum(Duration.ofSeconds(30));
        return ensemble;
    }

    /** Fails unless ZooKeeper grants {@code timeout} as asked: outside 2..30 ticks it would silently clamp it. */
    static void requireGrantable(Duration timeout) {
        long min = TICK.toMillis() * MIN_SESSION_TICKS;
        long max = TICK.toMillis() * MAX_SESSION_TICKS;
        if (timeout.toMillis() < min || timeout.toMillis() > max) {
            throw new IllegalStateException("session timeout " + timeout + " lies outside ZooKeeper's bounds " + min
                    + ".." + max + " ms for a tick of " + TICK);
        }
    }

    int clientPort(int server) {
        return specs.get(server).getPort();
    }

    /** Stops server {@code server} abruptly (its clients see their connections drop). */
    void kill(int server) throws Exception {
        if (!cluster.killServer(specs.get(server))) {
            throw new IllegalStateException("ZooKeeper server " + server + " was not found to kill");
        }
        up[server] = false;
    }

    /** Starts a killed server again on the same ports and data directory. */
    void restart(int server) throws Exception {
        if (!cluster.restartServer(specs.get(server))) {
            throw new IllegalStateException("ZooKeeper server " + server + " was not found to restart");
        }
        up[server] = true;
    }

    /** The live server that leads the quorum; fails if none does. */
    int leader() {
        for (int server = 0; server < SERVERS; server++) {
            if (up[server] && "leader".equals(mode(server))) {
                return server;
            }
        }
        throw new IllegalStateException("no ZooKeeper server is leader: " + modes());
    }

    /** A live server that follows the leader; fails if none does. */
    int follower() {
        for (int server = 0; server < SERVERS; server++) {
            if (up[server] && "follower".equals(mode(server))) {
                return server;
            }
        }
        throw new IllegalStateException("no ZooKeeper server is follower: " + modes());
    }

    /** Waits until every live server serves as leader or follower. */
    void awaitQuorum(Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            if (serving()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("ZooKeeper has no quorum after " + within + ": " + modes());
    }

    /** True while every live server serves clients. */
    boolean serving() {
        for (int server = 0; server < SERVERS; server++) {
            if (up[server] && NOT_SERVING.equals(mode(server))) {
                return false;
            }
        }
        return true;
    }

    /** Each server's mode, for messages. */
    String modes() {
        List<String> modes = new ArrayList<>();
        for (int server = 0; server < SERVERS; server++) {
            modes.add(server + "=" + (up[server] ? mode(server) : "killed"));
        }
        return String.join(", ", modes);
    }

    /**
     * Remote ports of the client connections server {@code server} holds (from 127.0.0.1), this question's own left
     * out.
     */
    Set<Integer> clientConnections(int server) {
        Set<Integer> ports = new TreeSet<>();
        if (!up[server]) {
            return ports;
        }
        try (Socket socket = ask(server, "cons")) {
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            Matcher connection = CONNECTION.matcher(answer);
            while (connection.find()) {
                ports.add(Integer.parseInt(connection.group(1)));
            }
            ports.remove(socket.getLocalPort());
        } catch (IOException e) {
            throw new IllegalStateException("ZooKeeper server " + server + " does not list its connections", e);
        }
        return ports;
    }

    private Socket ask(int server, String word) throws IOException {
        Socket socket = new Socket();
        socket.connect(
                new InetSocketAddress(TestServers.LOCALHOST, clientPort(server)), (int) PROBE_TIMEOUT.toMillis());
        socket.setSoTimeout((int) PROBE_TIMEOUT.toMillis());
        OutputStream out = socket.getOutputStream();
        out.write(word.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    // the four-letter word srvr answers "Mode: leader|follower", or that the server does not serve requests
    private String mode(int server) {
        try (Socket socket = ask(server, "srvr")) {
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            for (String line : answer.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring("Mode: ".length()).trim();
                }
            }
            return NOT_SERVING;
        } catch (IOException e) {
            return NOT_SERVING;
        }
    }

    @Override
    public void close() throws IOException {
        cluster.close();
    }
}
