package io.mykit.delay.queue.cluster;

import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.timer.TimerGroup;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bucket ownership through ZooKeeper (see the package notes): master-slave (the leader latch holder owns every bucket)
 * or cluster (rendezvous hashing over live members). All decisions run on one reconcile thread; ZooKeeper callbacks
 * only flip flags and schedule it. This class runs that thread and its order of steps; the steps are
 * {@link ConnectionGrace}, {@link LayoutGuard}, {@link Membership}, the mode's {@link OwnershipPolicy} and
 * {@link BucketLeases}.
 */
public final class ZooKeeperOwnership implements BucketOwnership {
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperOwnership.class);
    /** A reconcile also runs this often, whatever the events: a missed watch costs at most this much. */
    private static final long TICK_MS = 1_000;

    private final CuratorFramework client;
    private final OwnershipSettings settings;
    private final FenceTokens fence;
    /** The namespace as last seen: members, owners and the leader are read from here without a round trip. */
    private final CuratorCache cache;

    private final ConnectionGrace connection;
    private final Membership membership;
    private final LayoutGuard layoutGuard;
    private final OwnershipPolicy policy;
    private final BucketLeases leases;
    private final OwnershipView view;

    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mykit-ownership");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile boolean stopped;

    /**
     * {@code client} is namespaced and not started; this class starts and closes it. {@code claims} records terms in
     * Redis; {@code layoutCheck} gets whether other nodes live once ZooKeeper's layout agrees, and checks (or migrates)
     * Redis; {@code restores} counts the automatic restores this node ran.
     */
    public ZooKeeperOwnership(
            CuratorFramework client,
            OwnershipSettings settings,
            TimerGroup timers,
            FenceTokens fence,
            TermClaims claims,
            Consumer<Boolean> layoutCheck,
            LongSupplier restores) {
        this.client = client;
        this.settings = settings;
        this.fence = fence;
        this.cache = CuratorCache.build(client, "/");
        this.leases = new BucketLeases(
                client,
                settings.nodeId(),
                timers,
                fence,
                claims,
                settings.timing().sessionTimeout());
        this.connection = new ConnectionGrace(client, settings.timing(), leases::deactivateAll, this::schedule);
        this.membership = new Membership(client, cache, settings.nodeId(), settings.nodeUrl());
        this.layoutGuard = new LayoutGuard(client, settings.layout(), membership, layoutCheck);
        this.policy = settings.mode() == OwnershipSettings.Mode.MASTER_SLAVE
                ? new MasterSlavePolicy(
                        client, cache, settings.nodeId(), settings.buckets(), leases::deactivateAll, this::schedule)
                : new ClusterPolicy(membership, settings.nodeId(), settings.buckets());
        this.view = new OwnershipView(cache, settings, fence, restores);
    }

    /**
     * Connects and checks the layout; fails (the node refuses to start) when ZooKeeper is out of reach or disagrees.
     */
    public void join() {
        client.start();
        try {
            long connectWait = settings.timing().connectTimeout().toMillis() * 3;
            if (!client.blockUntilConnected((int) connectWait, TimeUnit.MILLISECONDS)) {
                String servers = client.getZookeeperClient().getCurrentConnectionString();
                throw new IllegalStateException("ZooKeeper " + servers + " did not answer within "
                        + settings.timing().connectTimeout().multipliedBy(3) + ": mode "
                        + settings.mode().label()
                        + " needs it to start");
            }
            // as serve-only until start(): the others keep their buckets until this node can take its share
            layoutGuard.checkThen(() -> membership.register(sessionId(), false));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining ZooKeeper", e);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        } catch (Exception e) {
            client.close();
            throw new IllegalStateException("cannot join ZooKeeper: " + e, e);
        }
        connection.joined();
    }

    @Override
    public void start() {
        if (!connection.isConnected()) {
            join();
        }
        client.getConnectionStateListenable().addListener((c, state) -> connection.changed(state));
        cache.listenable()
                .addListener(CuratorCacheListener.builder()
                        .forAll((type, before, after) -> schedule())
                        .build());
        cache.start();
        if (settings.pumps()) {
            policy.start();
        }
        fence.onFenced(bucket -> {
            leases.deactivate(bucket);
            worker.execute(() -> {
                leases.dropFenced(bucket);
                schedule();
            });
        });
        worker.scheduleWithFixedDelay(this::reconcileSafely, 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    private void schedule() {
        if (pending.compareAndSet(false, true)) {
            worker.execute(() -> {
                pending.set(false);
                reconcileSafely();
            });
        }
    }

    /** Nothing may escape: the tick's schedule would end for good on a throw, an Error included. */
    private void reconcileSafely() {
        try {
            reconcile();
        } catch (Throwable e) {
            try {
                log.warn("ownership reconcile failed, retrying in {} ms: {}", TICK_MS, e.toString());
            } catch (Throwable again) {
                // the log failed as well (a full heap): the next tick tries again
            }
        }
    }

    private void reconcile() throws Exception {
        if (stopped) {
            return;
        }
        if (!connection.isConnected()) {
            if (connection.inGrace()) {
                // the guard ends the grace; until then the buckets pump on and nothing else changes
                return;
            }
            leases.pauseAll();
            if (connection.isLost()) {
                leases.forgetAll();
            }
            return;
        }
        long session = sessionId();
        if (connection.takeSessionInDoubt()) {
            leases.keepOnlyOurs(session);
        }
        membership.register(session, settings.pumps());
        Set<Integer> desired = settings.pumps() ? policy.desired() : Set.of();
        // release before acquire: a bucket moves only after its old timer has stopped
        leases.releaseAllBut(desired, session);
        leases.acquireMissing(desired, session);
        leases.reclaimNowAndThen();
        leases.startTimers(this::mayPump);
    }

    private boolean mayPump() {
        return settings.pumps() && connection.isConnected() && !stopped && policy.mayPump();
    }

    private long sessionId() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    @Override
    public void stop() {
        long begin = System.nanoTime();
        stopped = true;
        leases.deactivateAll();
        try {
            worker.submit(leases::stopAll).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("stopping the timers took too long: {}", e.toString());
        }
        long timersStopped = System.nanoTime();
        worker.shutdownNow();
        connection.close();
        cache.close();
        // closing the session deletes our latch, member and owner znodes in one write: the next leader finds the
        // buckets free the moment it leads (closing the latch first would let it lead while they are still ours)
        client.close();
        long end = System.nanoTime();
        log.info(
                "left ZooKeeper in {} ms: timers stopped in {} ms, session closed in {} ms",
                (end - begin) / 1_000_000,
                (timersStopped - begin) / 1_000_000,
                (end - timersStopped) / 1_000_000);
    }

    @Override
    public boolean isActive(int bucket) {
        return leases.isActive(bucket);
    }

    @Override
    public Collection<Integer> activeBuckets() {
        return leases.activeBuckets();
    }

    @Override
    public boolean runsChores() {
        return leases.isActive(0);
    }

    @Override
    public List<String> members() {
        return membership.live();
    }

    @Override
    public ClusterView view() {
        return view.read(connection.state(), policy.leader().orElse(null), membership.live(), leases::isPumping);
    }
}
