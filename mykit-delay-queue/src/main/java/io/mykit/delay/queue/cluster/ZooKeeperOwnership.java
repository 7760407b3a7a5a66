package io.mykit.delay.queue.cluster;

import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.timer.TimerGroup;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Bucket ownership through ZooKeeper (see the package notes): master-slave (the leader latch holder owns every bucket)
 * or cluster (rendezvous hashing over live members). All decisions run on one worker thread; ZooKeeper callbacks only
 * flip flags and schedule it.
 */
public final class ZooKeeperOwnership implements BucketOwnership {
    public enum Kind { MASTER_SLAVE, CLUSTER }

    /**
     * ZooKeeper timing. {@code suspendGrace}: how long buckets keep pumping after SUSPENDED, null for the longest
     * safe grace (4/15 of the negotiated session); never longer than that, whatever is configured.
     */
    public record Timing(Duration connectTimeout, Duration sessionTimeout, Duration suspendGrace) {
        public boolean stopsAtOnce() {
            return suspendGrace != null && suspendGrace.isZero();
        }
    }

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperOwnership.class);
    /** A reconcile also runs this often, whatever the events: a missed watch costs at most this much. */
    private static final long TICK_MS = 1_000;
    private static final String MEMBERS = "/members";
    private static final String OWNERS = "/owners";
    private static final String LAYOUT = "/layout";
    private static final String LEADER = "/leader";
    private static final String LAYOUT_LOCK = "/locks/layout";
    /** Marks a member whose timers are off: it serves HTTP and answers restores, but gets no bucket. */
    private static final String SERVE_ONLY = " serve-only";
    /** A migration of a million jobs takes seconds; a lock held longer than this belongs to a stuck node. */
    private static final Duration LAYOUT_LOCK_WAIT = Duration.ofMinutes(5);

    private final CuratorFramework client;
    private final Kind kind;
    private final String nodeId;
    private final String nodeUrl;
    private final boolean pumps;
    private final int buckets;
    private final String layout;
    private final DelayStore store;
    private final FenceTokens fence;
    private final TimerGroup timers;
    private final Timing timing;
    private final LongSupplier restores;
    private final Consumer<Boolean> layoutCheck;

    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mykit-ownership");
        t.setDaemon(true);
        return t;
    });
    /** Ends a suspension's grace even while the worker is stuck in a ZooKeeper call. */
    private final ScheduledExecutorService guard = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mykit-ownership-guard");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean pending = new AtomicBoolean();
    /** Counts connection changes: a grace ends only if no change came after the suspension that started it. */
    private final AtomicLong connectionChanges = new AtomicLong();
    private volatile boolean inGrace;
    /** Buckets held in ZooKeeper by this session: touched by the worker thread only. */
    private final Set<Integer> owned = new java.util.HashSet<>();
    /** Buckets whose timer may pump: cleared at once by a connection loss, whatever the worker is doing. */
    private final Set<Integer> active = ConcurrentHashMap.newKeySet();
    private volatile boolean connected;
    private volatile boolean sessionInDoubt;
    private volatile ConnectionState lastState = ConnectionState.CONNECTED;
    private volatile boolean stopped;
    private long lastReclaim;
    private LeaderLatch latch;
    private CuratorCache cache;

    /** {@code client} is namespaced and not started; this class starts and closes it. */
    public ZooKeeperOwnership(CuratorFramework client, Kind kind, String nodeId, String nodeUrl, boolean pumps, int buckets,
                              String keyPrefix, DelayStore store, FenceTokens fence, TimerGroup timers,
                              Timing timing, LongSupplier restores, Consumer<Boolean> layoutCheck) {
        this.client = client;
        this.kind = kind;
        this.nodeId = nodeId;
        this.nodeUrl = nodeUrl;
        this.pumps = pumps;
        this.buckets = buckets;
        this.layout = "buckets=" + buckets + " prefix=" + keyPrefix;
        this.store = store;
        this.fence = fence;
        this.timers = timers;
        this.timing = timing;
        this.restores = restores;
        this.layoutCheck = layoutCheck;
    }

    /** Connects and checks the layout; fails (the node refuses to start) when ZooKeeper is out of reach or disagrees. */
    public void join() {
        client.start();
        try {
            if (!client.blockUntilConnected((int) timing.connectTimeout().toMillis() * 3, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("ZooKeeper " + client.getZookeeperClient().getCurrentConnectionString()
                        + " did not answer within " + timing.connectTimeout().multipliedBy(3) + ": mode " + mode()
                        + " needs it to start");
            }
            // one node at a time checks (and may migrate) the layout and joins: a node starting at the same moment
            // with another bucket count then sees this one as a live member and refuses
            InterProcessMutex lock = new InterProcessMutex(client, LAYOUT_LOCK);
            if (!lock.acquire(LAYOUT_LOCK_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("another node held the layout lock for " + LAYOUT_LOCK_WAIT);
            }
            try {
                boolean othersLive = checkLayout();
                layoutCheck.accept(othersLive);
                // as serve-only until start(): the others keep their buckets until this node can take its share
                registerMember(sessionId(), false);
            } finally {
                lock.release();
            }
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
        connected = true;
    }

    /** Checks ZooKeeper's layout record against this node's; returns whether other nodes live. */
    private boolean checkLayout() throws Exception {
        List<String> live = new ArrayList<>(client.checkExists().forPath(MEMBERS) == null ? List.of()
                : client.getChildren().forPath(MEMBERS));
        // an earlier run of this very node whose session has not expired yet is not another node
        live.remove(nodeId);
        byte[] wanted = layout.getBytes(StandardCharsets.UTF_8);
        try {
            client.create().creatingParentsIfNeeded().forPath(LAYOUT, wanted);
            return !live.isEmpty();
        } catch (KeeperException.NodeExistsException recorded) {
            // compared below
        }
        String found = new String(client.getData().forPath(LAYOUT), StandardCharsets.UTF_8);
        if (found.equals(layout)) {
            return !live.isEmpty();
        }
        if (!live.isEmpty()) {
            throw new IllegalStateException("ZooKeeper records layout '" + found + "' for this namespace and nodes "
                    + live + " run it; this node is configured with '" + layout
                    + "'. Use the same mykit.delay.buckets and key prefix, or stop every node before changing them.");
        }
        log.warn("layout changes from '{}' to '{}' (no node runs the old one)", found, layout);
        client.setData().forPath(LAYOUT, wanted);
        return false;
    }

    @Override
    public void start() {
        if (!connected) {
            join();
        }
        client.getConnectionStateListenable().addListener((c, state) -> onConnectionState(state));
        cache = CuratorCache.build(client, "/");
        cache.listenable().addListener(CuratorCacheListener.builder().forAll((type, before, after) -> schedule()).build());
        cache.start();
        if (kind == Kind.MASTER_SLAVE && pumps) {
            latch = new LeaderLatch(client, LEADER, nodeId);
            latch.addListener(new LeaderLatchListener() {
                @Override
                public void isLeader() {
                    log.info("this node leads now: it takes every bucket");
                    schedule();
                }

                @Override
                public void notLeader() {
                    // stop pumping before the worker gets to it: another node may lead already
                    active.clear();
                    schedule();
                }
            });
            try {
                latch.start();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the leader latch", e);
            }
        }
        fence.onFenced(bucket -> {
            active.remove(bucket);
            worker.execute(() -> dropFenced(bucket));
        });
        worker.scheduleWithFixedDelay(this::reconcileSafely, 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    private void onConnectionState(ConnectionState state) {
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
        schedule();
    }

    private void endGrace(long suspension) {
        if (connectionChanges.get() == suspension && !connected) {
            stopEverything(ConnectionState.SUSPENDED);
            schedule();
        }
    }

    private void stopEverything(ConnectionState state) {
        // ZooKeeper may give our buckets to another node before we hear of it
        inGrace = false;
        active.clear();
        log.warn("ZooKeeper connection {}: every bucket of this node stops", state);
    }

    /** The grace for this suspension: the configured one, never beyond 4/15 of the session ZooKeeper granted. */
    private long graceMillis() {
        long session = client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
        if (session <= 0) {
            session = timing.sessionTimeout().toMillis();
        }
        long safe = session * 4 / 15;
        return timing.suspendGrace() == null ? safe : Math.min(timing.suspendGrace().toMillis(), safe);
    }

    private void schedule() {
        if (pending.compareAndSet(false, true)) {
            worker.execute(() -> {
                pending.set(false);
                reconcileSafely();
            });
        }
    }

    private void reconcileSafely() {
        try {
            reconcile();
        } catch (Exception e) {
            log.warn("ownership reconcile failed, retrying in {} ms: {}", TICK_MS, e.toString());
        }
    }

    private void reconcile() throws Exception {
        if (stopped) {
            return;
        }
        if (!connected) {
            if (inGrace) {
                // the guard ends the grace; until then the buckets pump on and nothing else changes
                return;
            }
            pauseAll();
            if (lastState == ConnectionState.LOST) {
                // the session is gone and with it every owner znode of ours
                owned.clear();
            }
            return;
        }
        long session = sessionId();
        if (sessionInDoubt) {
            sessionInDoubt = false;
            keepOnlyOurs(session);
        }
        registerMember(session, pumps);
        Set<Integer> desired = desired();
        for (Integer bucket : new ArrayList<>(owned)) {
            if (!desired.contains(bucket)) {
                release(bucket, session);
            }
        }
        List<Integer> missing = desired.stream().filter(bucket -> !owned.contains(bucket)).toList();
        acquire(missing, session);
        reclaimNowAndThen();
        for (int bucket : owned) {
            if (active.add(bucket)) {
                // a connection loss or lost leadership clears 'active' from another thread: check after adding
                if (!mayPump()) {
                    active.remove(bucket);
                    return;
                }
                timers.startBucket(bucket);
                timers.wake(bucket, 0);
            }
        }
    }

    private boolean mayPump() {
        return pumps && connected && !stopped && (kind != Kind.MASTER_SLAVE || latch.hasLeadership());
    }

    private Set<Integer> desired() throws Exception {
        Set<Integer> wanted = new TreeSet<>();
        if (!pumps) {
            return wanted;
        }
        if (kind == Kind.MASTER_SLAVE) {
            if (latch.hasLeadership()) {
                for (int b = 0; b < buckets; b++) {
                    wanted.add(b);
                }
            }
            return wanted;
        }
        List<String> members = new ArrayList<>();
        for (String member : client.getChildren().forPath(MEMBERS)) {
            try {
                if (!new String(client.getData().forPath(MEMBERS + "/" + member), StandardCharsets.UTF_8)
                        .endsWith(SERVE_ONLY)) {
                    members.add(member);
                }
            } catch (KeeperException.NoNodeException left) {
                // gone between the listing and the read: not a member any more
            }
        }
        for (int b = 0; b < buckets; b++) {
            if (nodeId.equals(Rendezvous.owner(b, members))) {
                wanted.add(b);
            }
        }
        return wanted;
    }

    private void registerMember(long session, boolean takesBuckets) throws Exception {
        String path = MEMBERS + "/" + nodeId;
        byte[] data = (takesBuckets ? nodeUrl : nodeUrl + SERVE_ONLY).getBytes(StandardCharsets.UTF_8);
        // as the cache last saw it: no ZooKeeper round trip on a reconcile that finds us registered already
        Optional<ChildData> seen = cache == null ? Optional.empty() : cache.get(path);
        if (seen.isPresent() && seen.get().getStat().getEphemeralOwner() == session
                && Arrays.equals(seen.get().getData(), data)) {
            return;
        }
        Stat stat = client.checkExists().forPath(path);
        if (stat != null && stat.getEphemeralOwner() == session) {
            if (!Arrays.equals(client.getData().forPath(path), data)) {
                client.setData().forPath(path, data);
            }
            return;
        }
        if (stat != null) {
            // left by an earlier run of this node whose session has not expired yet
            deleteQuietly(path);
        }
        client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
    }

    /** After a reconnect: a bucket stays only if its owner znode still belongs to this session. */
    private void keepOnlyOurs(long session) throws Exception {
        for (Integer bucket : new ArrayList<>(owned)) {
            Stat stat = client.checkExists().forPath(ownerPath(bucket));
            if (stat == null || stat.getEphemeralOwner() != session) {
                log.warn("bucket {} is no longer ours after the reconnect", bucket);
                stopBucket(bucket);
                owned.remove(bucket);
            }
        }
    }

    /**
     * Takes the owner znodes of {@code wanted} and records their terms in Redis. Every create is sent before any answer
     * is awaited: each is a quorum write, and one at a time a takeover of 16 buckets took 0.55 s on a 2-core machine.
     */
    private void acquire(List<Integer> wanted, long session) throws Exception {
        if (wanted.isEmpty()) {
            return;
        }
        long begin = System.nanoTime();
        byte[] data = nodeId.getBytes(StandardCharsets.UTF_8);
        Map<Integer, CompletableFuture<CuratorEvent>> creates = new TreeMap<>();
        for (int bucket : wanted) {
            CompletableFuture<CuratorEvent> answer = new CompletableFuture<>();
            creates.put(bucket, answer);
            // storingStatIn makes the answer carry the new znode's stat: its czxid is the term's token
            client.create().storingStatIn(new Stat()).creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .inBackground((c, event) -> answer.complete(event)).forPath(ownerPath(bucket), data);
        }
        Map<Integer, Stat> held = new TreeMap<>();
        List<Integer> existed = new ArrayList<>();
        for (Map.Entry<Integer, CompletableFuture<CuratorEvent>> create : creates.entrySet()) {
            CuratorEvent answer = answerOf(create.getValue());
            KeeperException.Code code = KeeperException.Code.get(answer.getResultCode());
            if (code == KeeperException.Code.OK) {
                held.put(create.getKey(), answer.getStat());
            } else if (code == KeeperException.Code.NODEEXISTS) {
                existed.add(create.getKey());
            } else {
                throw KeeperException.create(code, ownerPath(create.getKey()));
            }
        }
        // one that existed may be ours from before a reconnect; another session's lets go (or expires) first, and
        // the deletion brings us back here
        held.putAll(ownersOf(existed, session));
        List<Integer> ours = new ArrayList<>(held.keySet());
        held.forEach((bucket, stat) -> fence.set(bucket, FenceTokens.format(stat.getCzxid())));
        long znodes = System.nanoTime();
        Set<Integer> outranked;
        try {
            outranked = store.claimAgain(ours);
        } catch (RuntimeException redisDown) {
            // without the claim a paused older owner could still pump: hold nothing until Redis answers
            log.warn("buckets {}: cannot record our terms in Redis ({}), retrying", ours, redisDown.toString());
            for (int bucket : ours) {
                deleteIfOurs(ownerPath(bucket), session);
            }
            return;
        }
        long terms = System.nanoTime();
        List<String> taken = new ArrayList<>();
        for (int bucket : ours) {
            if (outranked.contains(bucket)) {
                log.warn("bucket {}: Redis holds a newer term than ours ({}), letting it go", bucket, fence.token(bucket));
                deleteIfOurs(ownerPath(bucket), session);
            } else {
                owned.add(bucket);
                taken.add(bucket + "@" + fence.token(bucket));
            }
        }
        if (!taken.isEmpty()) {
            log.info("buckets ours (bucket@token): {}; znodes in {} ms, terms in Redis in {} ms", taken,
                    (znodes - begin) / 1_000_000, (terms - znodes) / 1_000_000);
        }
    }

    /** The owner znodes of these buckets that belong to {@code session}, read side by side. */
    private Map<Integer, Stat> ownersOf(Collection<Integer> buckets, long session) throws Exception {
        Map<Integer, CompletableFuture<CuratorEvent>> reads = new TreeMap<>();
        for (int bucket : buckets) {
            CompletableFuture<CuratorEvent> answer = new CompletableFuture<>();
            reads.put(bucket, answer);
            client.checkExists().inBackground((c, event) -> answer.complete(event)).forPath(ownerPath(bucket));
        }
        Map<Integer, Stat> ours = new TreeMap<>();
        for (Map.Entry<Integer, CompletableFuture<CuratorEvent>> read : reads.entrySet()) {
            Stat stat = answerOf(read.getValue()).getStat();
            if (stat != null && stat.getEphemeralOwner() == session) {
                ours.put(read.getKey(), stat);
            }
        }
        return ours;
    }

    private CuratorEvent answerOf(CompletableFuture<CuratorEvent> answer) throws Exception {
        try {
            return answer.get(timing.sessionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("ZooKeeper call failed", e.getCause());
        }
    }

    /** Once a tick, records our terms again: a Redis that lost its data (or a flushed owner key) is fenced again. */
    private void reclaimNowAndThen() {
        long now = System.currentTimeMillis();
        if (now - lastReclaim < TICK_MS) {
            return;
        }
        lastReclaim = now;
        Set<Integer> outranked;
        try {
            outranked = store.claimAgain(owned);
        } catch (RuntimeException redisDown) {
            // the steps themselves fail too while Redis is away; the next tick tries again
            return;
        }
        for (int bucket : outranked) {
            log.warn("bucket {}: a newer term claimed it, letting it go", bucket);
            stopBucket(bucket);
            owned.remove(bucket);
        }
    }

    private void release(int bucket, long session) throws Exception {
        stopBucket(bucket);
        owned.remove(bucket);
        deleteIfOurs(ownerPath(bucket), session);
        log.info("bucket {} released", bucket);
    }

    private void dropFenced(int bucket) {
        stopBucket(bucket);
        if (owned.remove(bucket)) {
            log.warn("bucket {} was refused by Redis (FENCED): a newer term owns it", bucket);
        }
        schedule();
    }

    private void pauseAll() {
        active.clear();
        timers.stopBuckets(owned);
    }

    private void stopBucket(int bucket) {
        active.remove(bucket);
        timers.stopBucket(bucket);
    }

    private void deleteIfOurs(String path, long session) throws Exception {
        Stat stat = client.checkExists().forPath(path);
        if (stat != null && stat.getEphemeralOwner() == session) {
            try {
                client.delete().withVersion(stat.getVersion()).forPath(path);
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
                // already gone or replaced: nothing of ours to delete
            }
        }
    }

    private void deleteQuietly(String path) throws Exception {
        try {
            client.delete().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            // expired meanwhile
        }
    }

    private long sessionId() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    private static String ownerPath(int bucket) {
        return OWNERS + "/b" + bucket;
    }

    @Override
    public void stop() {
        long begin = System.nanoTime();
        stopped = true;
        active.clear();
        try {
            worker.submit(() -> {
                timers.stopBuckets(owned);
                owned.clear();
            }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("stopping the timers took too long: {}", e.toString());
        }
        long timersStopped = System.nanoTime();
        worker.shutdownNow();
        guard.shutdownNow();
        if (cache != null) {
            cache.close();
        }
        // closing the session deletes our latch, member and owner znodes in one write: the next leader finds the
        // buckets free the moment it leads (closing the latch first let it lead while they were still ours)
        client.close();
        long end = System.nanoTime();
        log.info("left ZooKeeper in {} ms: timers stopped in {} ms, session closed in {} ms", (end - begin) / 1_000_000,
                (timersStopped - begin) / 1_000_000, (end - timersStopped) / 1_000_000);
    }

    @Override
    public boolean isActive(int bucket) {
        return active.contains(bucket);
    }

    @Override
    public Collection<Integer> activeBuckets() {
        return List.copyOf(active);
    }

    @Override
    public boolean runsChores() {
        return active.contains(0);
    }

    private String mode() {
        return kind == Kind.MASTER_SLAVE ? "master-slave" : "cluster";
    }

    @Override
    public List<String> members() {
        List<String> members = new ArrayList<>();
        if (cache != null) {
            cache.stream().map(ChildData::getPath).filter(path -> path.startsWith(MEMBERS + "/"))
                    .forEach(path -> members.add(path.substring(MEMBERS.length() + 1)));
        }
        members.sort(null);
        return members;
    }

    @Override
    public ClusterView view() {
        List<String> members = members();
        Map<Integer, ChildData> owners = new HashMap<>();
        if (cache != null) {
            cache.stream().filter(data -> data.getPath().startsWith(OWNERS + "/b"))
                    .forEach(data -> owners.put(Integer.parseInt(data.getPath().substring(OWNERS.length() + 2)), data));
        }
        List<ClusterView.BucketView> views = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            ChildData owner = owners.get(b);
            views.add(new ClusterView.BucketView(b,
                    owner == null ? null : new String(owner.getData(), StandardCharsets.UTF_8),
                    owner == null ? null : FenceTokens.format(owner.getStat().getCzxid()),
                    active.contains(b) && timers.isPumping(b)));
        }
        return new ClusterView(mode(), nodeId, lastState.name(), leader().orElse(null), members, fence.refusals(),
                restores.getAsLong(), views);
    }

    /**
     * The latch participant with the lowest sequence leads; read from the local cache, never from ZooKeeper, so
     * {@code /cluster} answers at once while ZooKeeper is out of reach.
     */
    private Optional<String> leader() {
        if (kind != Kind.MASTER_SLAVE || cache == null) {
            return Optional.empty();
        }
        return cache.stream().filter(data -> data.getPath().startsWith(LEADER + "/"))
                .min(java.util.Comparator.comparing(data -> sequenceOf(data.getPath())))
                .map(data -> new String(data.getData(), StandardCharsets.UTF_8))
                .filter(id -> !id.isEmpty());
    }

    /** The sequence suffix ZooKeeper appends to a latch node's name (fixed width, so string order is number order). */
    private static String sequenceOf(String path) {
        return path.substring(Math.max(0, path.length() - 10));
    }
}
