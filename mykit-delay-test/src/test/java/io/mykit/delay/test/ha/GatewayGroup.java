package io.mykit.delay.test.ha;

import io.mykit.delay.test.chaos.ChildGateway;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TcpProxy;
import io.mykit.delay.test.support.TestServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

/**
 * The gateways of one HA test class and what they share: a ZooKeeper ensemble, a private Redis, one key prefix and one
 * journal database, one mode and bucket count. Each gateway is a child JVM with its own ZooKeeper proxies.
 */
final class GatewayGroup implements AutoCloseable {

    /** Short ZooKeeper timings, so that a dead owner is replaced within seconds. */
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);
    /**
     * For ZooKeeper server deaths: a session that outlives a re-election (Curator gives a session up after one session
     * timeout SUSPENDED), and the suspend grace it allows (4/15 of it) is the default 6 s session's: 1.6 s.
     */
    static final Duration LONG_SESSION_TIMEOUT = Duration.ofSeconds(6);

    static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(1);
    /** In-flight jobs of a dead node come back this long after their hand-over. */
    static final Duration DISPATCH_TIMEOUT = Duration.ofSeconds(3);

    static final Duration CLUSTER_CALL_TIMEOUT = Duration.ofSeconds(2);
    /** How long an ownership map must hold unchanged to count as settled. */
    static final Duration SETTLED_FOR = Duration.ofSeconds(1);
    // while waiting for a state, a node that does not answer this fast is passed over for one look
    private static final Duration QUICK_ANSWER = Duration.ofMillis(700);
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final String mode;
    private final int buckets;
    private final Duration sessionTimeout;
    private final List<String> extraArguments;
    private final String prefix;
    private final String database;
    private final String jdbcUrl;
    private final Path logRoot;
    private final OwnRedis redis;
    private final ZooKeeperEnsemble zooKeeper;
    private final List<HaNode> nodes = new CopyOnWriteArrayList<>();
    private final HaHttp http = new HaHttp();

    private GatewayGroup(
            String name,
            String mode,
            int buckets,
            Duration sessionTimeout,
            List<String> extraArguments,
            OwnRedis redis,
            ZooKeeperEnsemble zooKeeper)
            throws IOException {
        String run = UUID.randomUUID().toString().substring(0, 8);
        this.mode = mode;
        this.buckets = buckets;
        this.sessionTimeout = sessionTimeout;
        this.extraArguments = List.copyOf(extraArguments);
        this.prefix = "ha-" + run;
        this.database = "mykit_delay_ha_" + run;
        this.jdbcUrl = TestServers.jdbcUrl(database);
        this.logRoot = Files.createDirectories(Path.of("target", "ha-logs", name + "-" + run))
                .toAbsolutePath();
        this.redis = redis;
        this.zooKeeper = zooKeeper;
    }

    /** A private Redis and a ZooKeeper ensemble for gateways in {@code mode} with {@code buckets}; none started yet. */
    static GatewayGroup create(String name, String mode, int buckets, String... extraArguments) throws Exception {
        return create(name, mode, buckets, SESSION_TIMEOUT, extraArguments);
    }

    /** As above, with gateways asking ZooKeeper for {@code sessionTimeout}. */
    static GatewayGroup create(String name, String mode, int buckets, Duration sessionTimeout, String... extraArguments)
            throws Exception {
        ZooKeeperEnsemble.requireGrantable(sessionTimeout);
        OwnRedis redis = TestServers.startOwnRedis();
        try {
            return new GatewayGroup(
                    name, mode, buckets, sessionTimeout, List.of(extraArguments), redis, ZooKeeperEnsemble.start());
        } catch (Exception | Error e) {
            redis.close();
            throw e;
        }
    }

    /** A new gateway with node id {@code id} and its own proxies to the ZooKeeper servers; not started. */
    HaNode add(String id) throws IOException {
        List<TcpProxy> links = new ArrayList<>();
        for (int server = 0; server < ZooKeeperEnsemble.SERVERS; server++) {
            links.add(new TcpProxy(TestServers.LOCALHOST, zooKeeper.clientPort(server)));
        }
        List<String> arguments = new ArrayList<>(List.of(
                "--mykit.delay.embedded.enabled=false",
                "--mykit.delay.http.warmup=0",
                "--mykit.delay.redis.host=" + redis.host(),
                "--mykit.delay.redis.port=" + redis.port(),
                "--mykit.delay.redis.key-prefix=" + prefix,
                "--mykit.delay.buckets=" + buckets,
                "--spring.datasource.url=" + jdbcUrl,
                "--spring.datasource.username=" + TestServers.jdbcUser(),
                "--spring.datasource.password=" + TestServers.jdbcPassword(),
                "--mykit.delay.timer.dispatch-timeout=" + DISPATCH_TIMEOUT.toMillis() + "ms",
                "--mykit.delay.journal.repair-after=2s",
                "--mykit.delay.recovery.check-interval=500ms",
                "--mykit.delay.mode=" + mode,
                "--mykit.delay.registry.server-list=" + HaNode.connectString(links),
                "--mykit.delay.registry.namespace=" + prefix,
                "--mykit.delay.registry.session-timeout=" + sessionTimeout.toMillis() + "ms",
                "--mykit.delay.registry.connection-timeout=" + CONNECTION_TIMEOUT.toMillis() + "ms",
                "--mykit.delay.registry.node-id=" + id));
        arguments.addAll(extraArguments);
        Path logDir = Files.createDirectories(logRoot.resolve(id));
        HaNode node = new HaNode(id, ChildGateway.of(TestServers.freePort(), JVM_OPTIONS, arguments, logDir), links);
        nodes.add(node);
        return node;
    }

    /** Starts the nodes side by side and returns once each answers HTTP; the first failure is thrown. */
    static void startAll(Collection<HaNode> starting) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        Map<HaNode, RuntimeException> failures = new LinkedHashMap<>();
        for (HaNode node : starting) {
            Thread thread = new Thread(
                    () -> {
                        try {
                            node.start();
                        } catch (RuntimeException e) {
                            synchronized (failures) {
                                failures.put(node, e);
                            }
                        }
                    },
                    "ha-start-" + node.id());
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            Map.Entry<HaNode, RuntimeException> first =
                    failures.entrySet().iterator().next();
            throw new IllegalStateException("gateway " + first.getKey() + " did not start", first.getValue());
        }
    }

    /** Every node ever added, dead or alive, in the order added. */
    List<HaNode> nodes() {
        return List.copyOf(nodes);
    }

    /** Nodes whose JVM runs (a frozen one included). */
    List<HaNode> alive() {
        return nodes.stream().filter(HaNode::isAlive).toList();
    }

    HaNode node(String id) {
        return nodes.stream()
                .filter(node -> node.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + id + " in " + nodes));
    }

    /** GET /cluster of every live node; a node that does not answer fails the call, naming it. */
    Map<String, ClusterView> views() {
        Map<String, ClusterView> views = new LinkedHashMap<>();
        for (HaNode node : alive()) {
            try {
                views.put(node.id(), node.cluster(CLUSTER_CALL_TIMEOUT));
            } catch (IOException e) {
                throw new IllegalStateException(node + " does not answer GET /cluster: " + e, e);
            }
        }
        return views;
    }

    /**
     * Waits until one of {@code candidates} pumps every bucket while every other node that answers pumps none: the
     * master-slave leader at work. Nodes that do not answer (dead, frozen, busy) are passed over.
     */
    HaNode awaitSoleLeader(Collection<HaNode> candidates, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        Map<String, ClusterView> seen = Map.of();
        while (System.nanoTime() < end) {
            seen = answering();
            for (HaNode candidate : candidates) {
                ClusterView view = seen.get(candidate.id());
                if (view != null
                        && view.pumping().size() == buckets
                        && seen.values().stream()
                                .filter(other -> other != view)
                                .allMatch(other -> other.pumping().isEmpty())) {
                    return candidate;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("none of " + candidates + " became the sole node pumping every bucket within " + within
                + "; last views: " + describe(seen));
    }

    /**
     * Waits until the nodes that answer are exactly {@code members}, each lists them all as members, and every bucket
     * is pumped by exactly one of them; returns bucket -> node id.
     */
    Map<Integer, String> awaitEachBucketPumpedOnce(Collection<HaNode> members, Duration within)
            throws InterruptedException {
        List<String> ids = members.stream().map(HaNode::id).sorted().toList();
        long end = System.nanoTime() + within.toNanos();
        Map<String, ClusterView> seen = Map.of();
        while (System.nanoTime() < end) {
            seen = answering();
            Map<Integer, String> pumpers = soleAndComplete(seen, ids);
            if (pumpers != null) {
                return pumpers;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the buckets were not each pumped by exactly one of " + ids + " within " + within
                + "; last views: " + describe(seen));
    }

    /**
     * {@link #awaitEachBucketPumpedOnce}, and each of {@code members} pumps a share and that map held for
     * {@link #SETTLED_FOR}: a node whose timers just started takes its share a moment after the others covered every
     * bucket, so "each bucket pumped once" alone can be a passing state.
     */
    Map<Integer, String> awaitSettledOwnership(Collection<HaNode> members, Duration within)
            throws InterruptedException {
        List<String> ids = members.stream().map(HaNode::id).sorted().toList();
        long end = System.nanoTime() + within.toNanos();
        Map<String, ClusterView> seen = Map.of();
        Map<Integer, String> held = null;
        long heldSince = 0;
        while (System.nanoTime() < end) {
            seen = answering();
            Map<Integer, String> pumpers = soleAndComplete(seen, ids);
            if (pumpers == null || !pumpers.values().containsAll(ids)) {
                held = null;
            } else if (!pumpers.equals(held)) {
                held = pumpers;
                heldSince = System.nanoTime();
            } else if (System.nanoTime() - heldSince >= SETTLED_FOR.toNanos()) {
                return pumpers;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the buckets did not settle, each pumped by exactly one of " + ids
                + " and every one of them pumping, within " + within + "; last views: " + describe(seen));
    }

    /** Waits until {@code node} is connected to ZooKeeper again and lists itself among the members. */
    void awaitMember(HaNode node, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        ClusterView view = null;
        while (System.nanoTime() < end) {
            try {
                view = node.cluster(CLUSTER_CALL_TIMEOUT);
                if (view.zookeeper().endsWith("CONNECTED") && view.members().contains(node.id())) {
                    return;
                }
            } catch (IOException e) {
                // not answering yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError(node + " did not rejoin within " + within + "; last view " + view);
    }

    /**
     * Fails when a ZooKeeper server holds a connection that none of the nodes' proxies made: a gateway reaching
     * ZooKeeper around the server list it was given could not be cut off by the tests.
     */
    void requireZooKeeperThroughProxies() throws InterruptedException {
        Map<Integer, Set<Integer>> foreign = foreignConnections();
        if (!foreign.isEmpty()) {
            // a connection a proxy made moments ago may be listed by the server before the proxy recorded it
            Thread.sleep(200);
            Map<Integer, Set<Integer>> again = foreignConnections();
            again.replaceAll((server, ports) -> {
                ports.retainAll(foreign.getOrDefault(server, Set.of()));
                return ports;
            });
            again.values().removeIf(Set::isEmpty);
            if (!again.isEmpty()) {
                throw new AssertionError("ZooKeeper connections that no test proxy made (server -> client ports): "
                        + again + ". A gateway connects around its configured server list (Curator's ensemble "
                        + "tracker replaces it with the addresses ZooKeeper's own configuration lists, unless "
                        + "disabled), so cutting its proxies no longer cuts it off");
            }
        }
    }

    private Map<Integer, Set<Integer>> foreignConnections() {
        Set<Integer> proxied = new TreeSet<>();
        nodes.forEach(node -> proxied.addAll(node.zooKeeperUpstreamPorts()));
        Map<Integer, Set<Integer>> foreign = new TreeMap<>();
        for (int server = 0; server < ZooKeeperEnsemble.SERVERS; server++) {
            Set<Integer> ports = new TreeSet<>(zooKeeper.clientConnections(server));
            ports.removeAll(proxied);
            if (!ports.isEmpty()) {
                foreign.put(server, ports);
            }
        }
        return foreign;
    }

    int buckets() {
        return buckets;
    }

    OwnRedis redis() {
        return redis;
    }

    ZooKeeperEnsemble zooKeeper() {
        return zooKeeper;
    }

    JobLog jobLog() {
        return new JobLog(jdbcUrl, TestServers.jdbcUser(), TestServers.jdbcPassword());
    }

    Path logRoot() {
        return logRoot;
    }

    // bucket -> its one pumper, or null when some bucket has none or several, or the membership differs
    private Map<Integer, String> soleAndComplete(Map<String, ClusterView> views, List<String> ids) {
        if (!views.keySet().equals(new TreeSet<>(ids))
                || views.values().stream().anyMatch(view -> !view.members().equals(ids))) {
            return null;
        }
        Map<Integer, String> pumpers = new TreeMap<>();
        for (ClusterView view : views.values()) {
            for (int bucket : view.pumping()) {
                if (pumpers.put(bucket, view.node()) != null) {
                    return null;
                }
            }
        }
        // in cluster mode a node listed as member but not yet pumping is still starting: the spread is not settled
        if ("cluster".equals(mode) && !new java.util.HashSet<>(pumpers.values()).containsAll(ids)) {
            return null;
        }
        return pumpers.size() == buckets ? pumpers : null;
    }

    // views of the live nodes that answer now, all asked at once so a frozen one delays the others by little
    private Map<String, ClusterView> answering() throws InterruptedException {
        Map<HaNode, CompletableFuture<HaHttp.Answer>> asked = new LinkedHashMap<>();
        alive().forEach(node -> asked.put(node, http.getAsync(node.clusterUrl(), QUICK_ANSWER)));
        Map<String, ClusterView> views = new TreeMap<>();
        for (Map.Entry<HaNode, CompletableFuture<HaHttp.Answer>> entry : asked.entrySet()) {
            try {
                HaHttp.Answer answer = entry.getValue().get();
                if (answer.ok()) {
                    views.put(entry.getKey().id(), ClusterView.parse(answer.data()));
                }
            } catch (ExecutionException e) {
                // dead, frozen or busy: its view is unknown
            }
        }
        return views;
    }

    static String describe(Map<String, ClusterView> views) {
        StringBuilder text = new StringBuilder();
        views.forEach((id, view) -> text.append("\n  ")
                .append(id)
                .append(": zookeeper ")
                .append(view.zookeeper())
                .append(", leader ")
                .append(view.leader())
                .append(", members ")
                .append(view.members())
                .append(", pumping ")
                .append(view.pumping())
                .append(", fenced ")
                .append(view.fencedCalls())
                .append(", restores ")
                .append(view.restores()));
        return text.toString();
    }

    @Override
    public void close() throws Exception {
        try {
            for (HaNode node : nodes) {
                node.close();
            }
        } finally {
            try {
                zooKeeper.close();
            } finally {
                redis.close();
                TestServers.dropDatabase(database);
            }
        }
    }
}
