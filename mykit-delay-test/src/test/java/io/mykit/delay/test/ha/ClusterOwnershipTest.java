package io.mykit.delay.test.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.chaos.ChildGateway;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.Jedis;

/**
 * Cluster mode (issue #11): gateways as child JVMs share 64 buckets by rendezvous hashing over the live members of a
 * real three-server ZooKeeper, on a private Redis, while a sampler reads every node's GET /cluster. First the ensemble
 * fails under three nodes: one server dies (a follower, then the leader: the owners stay and delivery does not pause),
 * then two (no quorum: nobody pumps, nothing is lost, delivery resumes once it is back). Then a node joins and another
 * is killed under load; last, Redis loses its data and exactly one node restores it. The scenarios share the gateways
 * and run in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterOwnershipTest {

    private static final String TEST = "ClusterOwnershipTest";
    private static final int BUCKETS = 64;
    private static final int PULL_PER_SECOND = 150;
    private static final Duration WARM_UP = Duration.ofSeconds(2);
    private static final Duration SETTLE = Duration.ofSeconds(1);
    private static final Duration DRAIN = Duration.ofSeconds(30);
    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration SAMPLE_PERIOD = Duration.ofMillis(100);
    private static final Duration WITHOUT_SERVER = Duration.ofSeconds(3);
    private static final Duration SESSION = GatewayGroup.LONG_SESSION_TIMEOUT;
    /**
     * The target for losing one server of three. A gateway pumps on for a grace after SUSPENDED (4/15 of the
     * session), so a reconnect within it costs no pause: the ZooKeeper client's random wait of up to 1 s before it
     * tries the next server for a dead follower, the re-election for a dead leader.
     */
    private static final Duration TARGET_PAUSE = Duration.ofMillis(1_500);
    /**
     * A dead ZooKeeper leader also costs a re-election, and every client reconnects after it: with the default 6 s
     * session's grace that cost 18-229 ms, but 2.4 s once on a 2-core box at load 12-17. The target is printed as a
     * figure; the bound holds the pause below the session, so no term was given up.
     */
    private static final Duration MAX_PAUSE_LEADER_DIED = SESSION.plusSeconds(1);
    /** Without quorum a node must stop before its session could have expired. */
    private static final Duration STOP_WITHIN = SESSION;
    /** Held longer than the session timeout, so clients give their sessions up while the quorum is away. */
    private static final Duration WITHOUT_QUORUM = SESSION.plusSeconds(2);
    /** After the quorum returns, the old sessions' owner znodes expire before new terms can begin. */
    private static final Duration RESUME_WITHIN = SESSION.plusSeconds(3);
    /** The documented hand-over moment after a kill: the dead node's session expires, then its buckets move. */
    private static final Duration KILL_GAP = SESSION.plusSeconds(2);
    /** A live node lets a bucket go before the new owner takes it: a moment, not a session timeout. */
    private static final Duration HANDOVER_GAP = Duration.ofSeconds(3);

    private static final Duration TAKEOVER_WAIT = KILL_GAP.plusSeconds(6);
    /** The Redis-loss watch looks this often (the gateways are started with it). */
    private static final Duration LOSS_CHECK = Duration.ofMillis(500);

    private final long classStart = System.currentTimeMillis();
    private GatewayGroup group;
    private OwnershipSampler sampler;

    @BeforeAll
    void startGateways() throws Exception {
        group = GatewayGroup.create("cluster", "cluster", BUCKETS, SESSION);
        List<HaNode> nodes = List.of(group.add("n1"), group.add("n2"), group.add("n3"));
        long begin = System.currentTimeMillis();
        GatewayGroup.startAll(nodes);
        HaFigures.print(TEST, "start-3-gateways-ms", System.currentTimeMillis() - begin);
        sampler = new OwnershipSampler(group::nodes, SAMPLE_PERIOD);
        System.out.println(TEST + ": gateway logs under " + group.logRoot());
    }

    @AfterAll
    void stopAll() throws Exception {
        try {
            if (sampler != null) {
                sampler.close();
            }
        } finally {
            if (group != null) {
                group.close();
            }
            HaFigures.print(TEST, "class-wall-ms", System.currentTimeMillis() - classStart);
        }
    }

    @Test
    @Order(1)
    void a_dead_zookeeper_follower_changes_no_owner_and_pauses_no_delivery() throws Exception {
        oneServerDies("follower", group.zooKeeper().follower(), TARGET_PAUSE, true);
    }

    @Test
    @Order(2)
    void a_dead_zookeeper_leader_changes_no_owner_and_pauses_no_delivery() throws Exception {
        oneServerDies("leader", group.zooKeeper().leader(), MAX_PAUSE_LEADER_DIED, true);
    }

    @Test
    @Order(3)
    void without_quorum_nobody_pumps_nothing_is_lost_and_delivery_resumes_when_it_returns() throws Exception {
        ZooKeeperEnsemble zooKeeper = group.zooKeeper();
        group.awaitEachBucketPumpedOnce(group.nodes(), START);
        String topic = "ha-zk-quorum";
        try (HaLoad load =
                new HaLoad(new HaLoad.Plan(topic, PULL_PER_SECOND, null, 0, null, 200, 1_500), group::nodes)) {
            Thread.sleep(WARM_UP.toMillis());
            int leader = zooKeeper.leader();
            int follower = zooKeeper.follower();
            long killsStart = System.currentTimeMillis();
            zooKeeper.kill(follower);
            zooKeeper.kill(leader);
            // the quorum is gone once both are: between the two kills the survivors still had one
            long lossAt = System.currentTimeMillis();
            figure("no-quorum-two-kills-ms", lossAt - killsStart);
            long restoreAt;
            try {
                Thread.sleep(WITHOUT_QUORUM.toMillis());
                assertThat(zooKeeper.serving())
                        .as("ZooKeeper without quorum: %s", zooKeeper.modes())
                        .isFalse();
            } finally {
                restoreAt = System.currentTimeMillis();
                zooKeeper.restart(leader);
                zooKeeper.restart(follower);
            }
            zooKeeper.awaitQuorum(START);
            group.awaitEachBucketPumpedOnce(group.nodes(), START);
            long settledAt = System.currentTimeMillis();
            load.stopPushing();
            boolean all = load.awaitAllDelivered(DRAIN);
            long end = System.currentTimeMillis();

            PumpTimeline timeline = new PumpTimeline(sampler.between(lossAt - WARM_UP.toMillis(), end), BUCKETS);
            long allStopped = 0;
            for (HaNode node : group.nodes()) {
                OptionalLong stopped = timeline.firstPumpingNone(node.id(), lossAt);
                assertThat(stopped)
                        .as("%s seen pumping nothing after the quorum was lost", node)
                        .isPresent();
                allStopped = Math.max(allStopped, stopped.getAsLong());
            }
            long stoppedAll = allStopped;
            List<OwnershipSampler.Observation> pumpingWithoutQuorum = group.nodes().stream()
                    .flatMap(node -> timeline.pumpingAnswers(node.id(), stoppedAll).stream())
                    .filter(o -> o.receivedAt() < restoreAt)
                    .toList();
            List<JobLog.Row> readyWithoutQuorum = group.jobLog().rows(JobStatus.Ready, stoppedAll, restoreAt);
            String moments = "quorum lost at " + lossAt + ", every node seen idle by " + stoppedAll
                    + ", quorum back at " + restoreAt;
            List<JobLog.Row> readyAfter = group.jobLog().rows(JobStatus.Ready, restoreAt, end);
            long resumed =
                    readyAfter.isEmpty() ? Long.MAX_VALUE : readyAfter.get(0).at() - restoreAt;
            figure("no-quorum-all-stopped-ms", stoppedAll - lossAt);
            figure("no-quorum-resumed-ms-after-quorum-back", resumed);
            figure("no-quorum-settled-ms-after-quorum-back", settledAt - restoreAt);
            figure("no-quorum-duplicates-pull", load.duplicates(topic));
            System.out.println(
                    TEST + " no quorum: " + load.summary() + "\n  deliveries per job " + load.deliveryHistogram());

            assertThat(sampler.failures())
                    .as("GET /cluster answers that were not a view")
                    .isEmpty();
            assertThat(all)
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(timeline.doublePumping())
                    .as("two nodes pumping one bucket")
                    .isEmpty();
            assertThat(stoppedAll - lossAt)
                    .as("ms until every node stopped pumping without quorum")
                    .isLessThanOrEqualTo(STOP_WITHIN.toMillis());
            assertThat(pumpingWithoutQuorum)
                    .as("answers showing a node pumping without quorum; %s", moments)
                    .isEmpty();
            assertThat(readyWithoutQuorum)
                    .as("jobs made ready without quorum; %s", moments)
                    .isEmpty();
            assertThat(resumed)
                    .as("ms from the quorum's return to the first job made ready")
                    .isLessThanOrEqualTo(RESUME_WITHIN.toMillis());
        }
    }

    private void oneServerDies(String role, int server, Duration maxPause, boolean sameTerms) throws Exception {
        ZooKeeperEnsemble zooKeeper = group.zooKeeper();
        // the first test runs right after the start: a node may not have taken its share yet
        Map<Integer, String> before = group.awaitSettledOwnership(group.nodes(), START);
        Map<Integer, String> tokensBefore = tokens();
        String topic = "ha-zk-" + role;
        try (HaLoad load =
                new HaLoad(new HaLoad.Plan(topic, PULL_PER_SECOND, null, 0, null, 200, 1_500), group::nodes)) {
            Thread.sleep(WARM_UP.toMillis());
            long killAt = System.currentTimeMillis();
            zooKeeper.kill(server);
            try {
                Thread.sleep(WITHOUT_SERVER.toMillis());
                assertThat(zooKeeper.serving())
                        .as("two servers of three keep the quorum: %s", zooKeeper.modes())
                        .isTrue();
            } finally {
                zooKeeper.restart(server);
            }
            Map<Integer, String> after = group.awaitEachBucketPumpedOnce(group.nodes(), START);
            Map<Integer, String> tokensAfter = tokens();
            zooKeeper.awaitQuorum(START);
            load.stopPushing();
            boolean all = load.awaitAllDelivered(DRAIN);
            long end = System.currentTimeMillis();

            PumpTimeline timeline = new PumpTimeline(sampler.between(killAt - WARM_UP.toMillis(), end), BUCKETS);
            long dueUntil = killAt + WITHOUT_SERVER.toMillis();
            long pause = load.maxHandOverLateness(
                    killAt - 500, dueUntil, group.jobLog().rows(JobStatus.Ready, killAt - 1_000, end), end);
            long toConsumer = load.maxLateness(killAt - 500, dueUntil, end);
            long baseline = load.maxLateness(killAt - WARM_UP.toMillis() + 1_000, killAt - 500, end);
            List<PumpTimeline.Gap> gaps =
                    timeline.gaps(killAt - 1_000, killAt + WITHOUT_SERVER.toMillis(), maxPause.toMillis());
            figure(role + "-killed-max-hand-over-lateness-ms", pause);
            figure(
                    role + "-killed-over-target-" + TARGET_PAUSE.toMillis() + "ms",
                    timeline.gaps(killAt - 1_000, killAt + WITHOUT_SERVER.toMillis(), TARGET_PAUSE.toMillis())
                            .size());
            figure(role + "-killed-terms-renewed", tokensAfter.equals(tokensBefore) ? 0 : 1);
            figure(role + "-killed-max-lateness-to-consumer-ms", toConsumer);
            figure(role + "-before-max-lateness-to-consumer-ms", baseline);
            figure(role + "-killed-gaps-over-" + maxPause.toMillis() + "ms", gaps.size());
            figure(role + "-killed-duplicates-pull", load.duplicates(topic));
            System.out.println(TEST + " " + role + " dies: " + load.summary() + "\n  deliveries per job "
                    + load.deliveryHistogram());

            assertThat(sampler.failures())
                    .as("GET /cluster answers that were not a view")
                    .isEmpty();
            assertThat(all)
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(timeline.doublePumping())
                    .as("two nodes pumping one bucket")
                    .isEmpty();
            assertThat(after)
                    .as("pumper of each bucket after the %s died", role)
                    .isEqualTo(before);
            if (sameTerms) {
                assertThat(tokensAfter)
                        .as("ownership terms (tokens) after the %s died: same terms, no re-acquisition", role)
                        .isEqualTo(tokensBefore);
            }
            assertThat(gaps)
                    .as("buckets seen without a pumper for more than %s", maxPause)
                    .isEmpty();
            assertThat(pause)
                    .as(
                            "longest wait from due time to Ready row of jobs due while the %s was dead (%d jobs)",
                            role, load.dueBetween(killAt - 500, dueUntil))
                    .isLessThanOrEqualTo(maxPause.toMillis());
        }
    }

    // bucket -> token, as the node pumping it reports it
    private Map<Integer, String> tokens() {
        Map<Integer, String> tokens = new TreeMap<>();
        group.views()
                .values()
                .forEach(view -> view.buckets().stream()
                        .filter(ClusterView.Bucket::pumping)
                        .forEach(bucket -> tokens.put(bucket.bucket(), bucket.token())));
        return tokens;
    }

    @Test
    @Order(4)
    void a_joining_node_and_a_killed_node_leave_every_bucket_with_exactly_one_pumper_and_lose_nothing()
            throws Exception {
        List<HaNode> first = group.nodes();
        Map<Integer, String> initial = group.awaitEachBucketPumpedOnce(first, START);
        figure("buckets-per-node-initial", perNode(initial));
        long loadStart = System.currentTimeMillis();
        try (HaLoad load =
                new HaLoad(new HaLoad.Plan("ha-cl-1", PULL_PER_SECOND, null, 0, null, 200, 1_500), group::alive)) {
            Thread.sleep(WARM_UP.toMillis());

            long joinAt = System.currentTimeMillis();
            HaNode joining = group.add("n4");
            joining.start();
            load.pullFrom(joining);
            List<HaNode> four = group.nodes();
            Map<Integer, String> afterJoin = group.awaitEachBucketPumpedOnce(four, START);
            figure("join-settled-ms-after-start", System.currentTimeMillis() - joinAt);
            figure("buckets-per-node-after-join", perNode(afterJoin));
            Thread.sleep(SETTLE.toMillis());

            HaNode victim = group.node("n1");
            Set<Integer> victimBuckets = bucketsOf(afterJoin, victim.id());
            long killAt = System.currentTimeMillis();
            assertThat(victim.kill9())
                    .as("exit status of %s after SIGKILL", victim)
                    .isEqualTo(ChildGateway.SIGKILL_EXIT);
            List<HaNode> survivors = group.alive();
            Map<Integer, String> afterKill = group.awaitEachBucketPumpedOnce(survivors, TAKEOVER_WAIT);
            figure("kill-settled-ms", System.currentTimeMillis() - killAt);
            figure("buckets-per-node-after-kill", perNode(afterKill));
            Thread.sleep(SETTLE.toMillis());
            load.stopPushing();
            boolean all = load.awaitAllDelivered(DRAIN);
            long end = System.currentTimeMillis();

            PumpTimeline timeline = new PumpTimeline(sampler.between(loadStart, end), BUCKETS);
            List<PumpTimeline.Gap> gaps = timeline.gaps(loadStart, end, SAMPLE_PERIOD.toMillis() * 3);
            List<PumpTimeline.Gap> killGaps = gaps.stream()
                    .filter(gap -> gap.from() <= killAt + KILL_GAP.toMillis() && gap.to() >= killAt)
                    .toList();
            List<PumpTimeline.Gap> otherGaps =
                    gaps.stream().filter(gap -> !killGaps.contains(gap)).toList();
            figure("kill-longest-gap-ms", longest(killGaps));
            figure("other-longest-gap-ms", longest(otherGaps));
            figure("duplicates-pull", load.duplicates("ha-cl-1"));
            figure("sampler-answers", timeline.answered());
            System.out.println(
                    TEST + " join/kill: " + load.summary() + "\n  deliveries per job " + load.deliveryHistogram()
                            + ", Ready rows by host " + group.jobLog().countByHost(JobStatus.Ready));

            assertThat(sampler.failures())
                    .as("GET /cluster answers that were not a view")
                    .isEmpty();
            assertThat(all)
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(timeline.doublePumping())
                    .as("two nodes pumping one bucket")
                    .isEmpty();
            assertThat(killGaps)
                    .as("buckets without a pumper around the kill, longer than %s", KILL_GAP)
                    .allMatch(gap -> gap.millis() <= KILL_GAP.toMillis());
            assertThat(otherGaps)
                    .as("buckets without a pumper away from the kill, longer than %s", HANDOVER_GAP)
                    .allMatch(gap -> gap.millis() <= HANDOVER_GAP.toMillis());
            // rendezvous hashing moves only what must move: buckets go to the joining node, or leave the dead one
            assertThat(changed(initial, afterJoin).values())
                    .as("new pumpers of buckets that moved on the join")
                    .allMatch(joining.id()::equals);
            assertThat(changed(afterJoin, afterKill).keySet())
                    .as("buckets that moved on the kill")
                    .isEqualTo(victimBuckets);
            assertThat(Set.copyOf(afterKill.values()))
                    .as("pumpers after the kill")
                    .isEqualTo(survivors.stream().map(HaNode::id).collect(Collectors.toSet()));
            assertThat(load.duplicates("ha-cl-1"))
                    .as("pull duplicates: at most what the dead node's pullers held")
                    .isLessThanOrEqualTo((long) HaLoad.PULLERS_PER_NODE * HaLoad.PULL_BATCH);
        }
    }

    @Test
    @Order(5)
    void after_redis_loses_its_data_exactly_one_node_restores_it_and_every_pending_job_is_delivered() throws Exception {
        List<HaNode> live = group.alive();
        Map<Integer, String> pumpers = group.awaitEachBucketPumpedOnce(live, START);
        long restoresBefore = restores();
        try (HaLoad load =
                new HaLoad(new HaLoad.Plan("ha-cl-2", PULL_PER_SECOND, null, 0, null, 1_000, 5_000), group::alive)) {
            Thread.sleep(WARM_UP.toMillis());
            long pendingAtFlush = load.undelivered().size();
            long flushAt = System.currentTimeMillis();
            try (Jedis redis = new Jedis(group.redis().host(), group.redis().port(), 30_000)) {
                assertThat(redis.flushAll()).isEqualTo("OK");
            }
            Thread.sleep(WARM_UP.toMillis());
            load.stopPushing();
            boolean all = load.awaitAllDelivered(DRAIN);
            // a second restore would come within a few checks of the first
            Thread.sleep(LOSS_CHECK.multipliedBy(4).toMillis());
            Map<String, ClusterView> views = group.views();
            long restoresAfter =
                    views.values().stream().mapToLong(ClusterView::restores).sum();
            figure("pending-at-flush", pendingAtFlush);
            figure("restores", restoresAfter - restoresBefore);
            figure(
                    "restores-by-node",
                    views.entrySet().stream()
                            .collect(Collectors.toMap(
                                    Map.Entry::getKey, e -> e.getValue().restores(), (a, b) -> a, TreeMap::new)));
            figure("owner-of-bucket-0", pumpers.get(0));
            figure("duplicates-pull", load.duplicates("ha-cl-2"));
            figure("all-delivered-ms-after-flush", System.currentTimeMillis() - flushAt);
            System.out.println(TEST + " redis loss: " + load.summary() + "\n  deliveries per job "
                    + load.deliveryHistogram() + GatewayGroup.describe(views));

            assertThat(pendingAtFlush)
                    .as("jobs pending when Redis lost its data")
                    .isPositive();
            assertThat(all)
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(restoresAfter - restoresBefore)
                    .as("automatic restores over all nodes")
                    .isEqualTo(1);
        }
    }

    private long restores() {
        return group.views().values().stream().mapToLong(ClusterView::restores).sum();
    }

    private static Map<Integer, String> changed(Map<Integer, String> before, Map<Integer, String> after) {
        Map<Integer, String> moved = new TreeMap<>();
        after.forEach((bucket, node) -> {
            if (!node.equals(before.get(bucket))) {
                moved.put(bucket, node);
            }
        });
        return moved;
    }

    private static Set<Integer> bucketsOf(Map<Integer, String> pumpers, String node) {
        return pumpers.entrySet().stream()
                .filter(e -> e.getValue().equals(node))
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    private static Map<String, Long> perNode(Map<Integer, String> pumpers) {
        return pumpers.values().stream()
                .collect(Collectors.groupingBy(node -> node, TreeMap::new, Collectors.counting()));
    }

    private static long longest(List<PumpTimeline.Gap> gaps) {
        return gaps.stream().mapToLong(PumpTimeline.Gap::millis).max().orElse(0);
    }

    private void figure(String name, Object value) {
        HaFigures.print(TEST, name, value);
    }
}
