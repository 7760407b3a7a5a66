package io.mykit.delay.queue.cluster;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the ZooKeeper connection for the ownership. SUSPENDED: the buckets pump on for a grace, then stop; LOST: they
 * stop at once; (RE)CONNECTED: which buckets are still ours is checked again. A state change only flips flags and asks
 * for a reconcile: the work runs on the ownership's thread, never on ZooKeeper's event thread.
 */
final class ConnectionGrace {
    private static final Logger log = LoggerFactory.getLogger(ConnectionGrace.class);

    private final CuratorFramework client;
    private final OwnershipSettings.Timing timing;
    private final Runnable stopPumping;
    private final Runnable reconcile;
    /** Ends a suspension's grace even while the ownership's thread is stuck in a ZooKeeper call. */
    private final ScheduledExecutorService guard = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mykit-ownership-guard");
        t.setDaemon(true);
        return t;
    });
    /** Counts connection changes: a grace ends only if no change came after the suspension that started it. */
    private final AtomicLong connectionChanges = new AtomicLong();

    private volatile boolean inGrace;
    private volatile boolean connected;
    private volatile boolean sessionInDoubt;
    private volatile ConnectionState lastState = ConnectionState.CONNECTED;

    /** {@code stopPumping} stops every bucket at once; {@code reconcile} asks the ownership's thread to look again. */
    ConnectionGrace(
            CuratorFramework client, OwnershipSettings.Timing timing, Runnable stopPumping, Runnable reconcile) {
        this.client = client;
        this.timing = timing;
        this.stopPumping = stopPumping;
        this.reconcile = reconcile;
    }

    /** This node connected and joined. */
    void joined() {
        connected = true;
    }

    /** Curator's connection state listener. */
    void changed(ConnectionState state) {
        long change = connectionChanges.incrementAndGet();
        lastState = state;
        if (state == ConnectionState.SUSPENDED) {
            connected = false;
            long grace = graceMillis();
            if (grace <= 0) {
                stopEverything(state);
            } else {
                // our session outlives the grace, so nobody else can own our buckets yet: a reconnect within it
                // (a dead server of three, a short election) costs no pause at all
                inGrace = true;
                guard.schedule(() -> endGrace(change), grace, TimeUnit.MILLISECONDS);
                log.warn("ZooKeeper connection SUSPENDED: this node's buckets pump on for at most {} ms", grace);
            }
        } else if (state == ConnectionState.LOST) {
            connected = false;
            stopEverything(state);
        } else if (state.isConnected()) {
            inGrace = false;
            sessionInDoubt = true;
            connected = true;
            log.info("ZooKeeper connection {}: checking which buckets are still ours", state);
        }
        reconcile.run();
    }

    private void endGrace(long suspension) {
        if (connectionChanges.get() == suspension && !connected) {
            stopEverything(ConnectionState.SUSPENDED);
            reconcile.run();
        }
    }

    private void stopEverything(ConnectionState state) {
        // ZooKeeper may give our buckets to another node before we hear of it
        inGrace = false;
        stopPumping.run();
        log.warn("ZooKeeper connection {}: every bucket of this node stops", state);
    }

    /** The grace for this suspension: the configured one, never beyond 4/15 of the session ZooKeeper granted. */
    private long graceMillis() {
        long session = client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
        if (session <= 0) {
            session = timing.sessionTimeout().toMillis();
        }
        long safe = session * 4 / 15;
        return timing.suspendGrace() == null
                ? safe
                : Math.min(timing.suspendGrace().toMillis(), safe);
    }

    boolean isConnected() {
        return connected;
    }

    /** Disconnected, but the buckets pump on until the grace ends. */
    boolean inGrace() {
        return inGrace;
    }

    /** The session is gone, and with it every ephemeral znode of this node. */
    boolean isLost() {
        return lastState == ConnectionState.LOST;
    }

    /** The last connection state, for the admin view. */
    String state() {
        return lastState.name();
    }

    /** Whether a (re)connect came since the last call: the buckets held must then be checked against ZooKeeper. */
    boolean takeSessionInDoubt() {
        if (!sessionInDoubt) {
            return false;
        }
        sessionInDoubt = false;
        return true;
    }

    void close() {
        guard.shutdownNow();
    }
}
