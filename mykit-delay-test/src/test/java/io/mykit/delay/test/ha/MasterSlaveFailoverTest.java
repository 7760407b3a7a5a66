package io.mykit.delay.test.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.chaos.ChildGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Master-slave mode (issue #11): four gateways as child JVMs, a real three-server ZooKeeper reached through per-node
 * proxies, a private Redis, the shared MariaDB journal and an embedded ActiveMQ. The leader pumps every bucket; it is
 * killed, stopped, frozen and cut off from ZooKeeper in turn while pushers and pull consumers run (plus a topic routed
 * to ActiveMQ), and a sampler reads every node's GET /cluster throughout. The scenarios share the gateways and run in
 * order: the killed and the stopped leader stay down (four nodes leave two for the last scenarios, cheaper than
 * restarting JVMs), the frozen and the cut-off one rejoin.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MasterSlaveFailoverTest {

    private static final String TEST = "MasterSlaveFailoverTest";
    private static final int BUCKETS = 16;
    private static final int PULL_PER_SECOND = 120;
    private static final int BROKER_PER_SECOND = 30;
    private static final long MIN_DELAY_MS = 200;
    private static final long MAX_DELAY_MS = 1_500;
    private static final int TIMER_BATCH = 50;
    private static final int SENDERS = 2;
    private static final Duration WARM_UP = Duration.ofSeconds(2);
    private static final Duration AFTER_TAKEOVER = Duration.ofSeconds(1);
    private static final Duration DRAIN = Duration.ofSeconds(30);
    private static final Duration START = Duration.ofSeconds(60);
    /** The contract's failover bound after a crash: the session must expire, then the new leader needs moments. */
    private static final Duration CRASH_FAILOVER = GatewayGroup.SESSION_TIMEOUT.plusMillis(1_500);
    /** A graceful stop deletes the leader's znodes at once: no session to wait for. */
    private static final Duration GRACEFUL_TAKEOVER = Duration.ofSeconds(1);

    private static final Duration TAKEOVER_WAIT = GatewayGroup.SESSION_TIMEOUT.plusSeconds(8);
    private static final Duration REJOIN = Duration.ofSeconds(15);
    private static final Duration SAMPLE_PERIOD = Duration.ofMillis(100);

    private final long classStart = System.currentTimeMillis();
    private final Set<Integer> allBuckets = IntStream.range(0, BUCKETS).boxed().collect(Collectors.toSet());
    private TestActiveMq broker;
    private GatewayGroup group;
    private OwnershipSampler sampler;
    private int scenario;

    @BeforeAll
    void startGateways() throws Exception {
        broker = TestActiveMq.start();
        group = GatewayGroup.create(
                "master-slave",
                "master-slave",
                BUCKETS,
                "--mykit.delay.dispatch.routes[amq-*]=activemq",
                "--mykit.delay.activemq.broker-url=" + broker.brokerUrl(),
                "--mykit.delay.activemq.send-timeout=1s",
                "--mykit.delay.dispatch.retry-base=200ms",
                "--mykit.delay.dispatch.retry-cap=2s",
                "--mykit.delay.dispatch.senders=" + SENDERS,
                "--mykit.delay.timer.batch-size=" + TIMER_BATCH);
        List<HaNode> nodes = List.of(group.add("n1"), group.add("n2"), group.add("n3"), group.add("n4"));
        long begin = System.currentTimeMillis();
        GatewayGroup.startAll(nodes);
        HaFigures.print(TEST, "start-4-gateways-ms", System.currentTimeMillis() - begin);
        sampler = new OwnershipSampler(group::nodes, SAMPLE_PERIOD);
        System.out.println(TEST + ": gateway logs under " + group.logRoot());
    }

    @AfterAll
    void stopAll() throws Exception {
        try {
            if (sampler != null) {
                sampler.close();
            }
            if (group != null) {
                group.close();
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
            HaFigures.print(TEST, "class-wall-ms", System.currentTimeMillis() - classStart);
        }
    }

    /** Every scenario begins with its live nodes connected and one leader, whatever an earlier failure left. */
    @BeforeEach
    void liveNodesConnected() throws Exception {
        scenario++;
        for (HaNode node : group.alive()) {
            node.healZooKeeper();
            group.awaitMember(node, REJOIN);
        }
        group.awaitSoleLeader(group.alive(), START);
    }

    @Test
    @Order(1)
    void kill_9_of_the_leader_hands_delivery_to_a_new_leader_within_session_timeout_and_loses_nothing()
            throws Exception {
        HaNode old = group.awaitSoleLeader(group.alive(), START);
        try (HaLoad load = newLoad()) {
            Thread.sleep(WARM_UP.toMillis());
            long killAt = System.currentTimeMillis();
            assertThat(old.kill9()).as("exit status of %s after SIGKILL", old).isEqualTo(ChildGateway.SIGKILL_EXIT);
            HaNode next = group.awaitSoleLeader(others(old), TAKEOVER_WAIT);
            Thread.sleep(AFTER_TAKEOVER.toMillis());
            Outcome outcome = finish(load);

            PumpTimeline timeline = timeline(killAt - WARM_UP.toMillis());
            long takeover = timeline.firstPumpingAll(next.id(), allBuckets, killAt)
                            .orElseThrow(() -> new AssertionError(next + " never seen pumping every bucket"))
                    - killAt;
            long firstDelivery = load.firstDeliveryOfJobDueAfter(killAt) - killAt;
            long firstReady = firstRow(next, JobStatus.Ready, killAt) - killAt;
            long dueUntil = killAt + takeover + 1_000;
            long handOver = load.maxHandOverLateness(
                    killAt, dueUntil, group.jobLog().rows(JobStatus.Ready, killAt, outcome.end()), outcome.end());
            long lateness = load.maxLateness(killAt, dueUntil, outcome.end());
            long latenessBefore = load.maxLateness(killAt - 1_000, killAt - 1, outcome.end());
            long pullDuplicates = load.duplicates(pullTopic());
            long brokerDuplicates = load.duplicates(brokerTopic());
            figure("kill9-takeover-ms", takeover);
            figure("kill9-first-delivery-of-job-due-after-kill-ms", firstDelivery);
            figure("kill9-first-ready-row-of-new-leader-ms", firstReady);
            figure("kill9-max-hand-over-lateness-of-pull-jobs-due-after-kill-ms", handOver);
            figure("kill9-max-lateness-to-consumer-of-jobs-due-after-kill-ms", lateness);
            figure("kill9-max-lateness-to-consumer-of-jobs-due-in-the-second-before-ms", latenessBefore);
            figure("kill9-duplicates-pull", pullDuplicates);
            figure("kill9-duplicates-activemq", brokerDuplicates);
            report(load, outcome);

            assertThat(outcome.allDelivered())
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(timeline.doublePumping())
                    .as("two nodes pumping one bucket")
                    .isEmpty();
            assertThat(firstDelivery)
                    .as("first delivery of a job due after the kill, ms after it")
                    .isLessThanOrEqualTo(CRASH_FAILOVER.toMillis());
            assertThat(firstReady)
                    .as("first Ready row of new leader %s, ms after the kill", next)
                    .isLessThanOrEqualTo(CRASH_FAILOVER.toMillis());
            assertThat(handOver)
                    .as(
                            "longest wait from due time to Ready row of pull jobs due after the kill (%d jobs)",
                            load.dueBetween(killAt, dueUntil))
                    .isLessThanOrEqualTo(CRASH_FAILOVER.toMillis());
            // only what the dead node had in hand can come twice: its pullers' batches, its senders' batches
            assertThat(pullDuplicates)
                    .as("pull duplicates")
                    .isLessThanOrEqualTo((long) HaLoad.PULLERS_PER_NODE * HaLoad.PULL_BATCH);
            assertThat(brokerDuplicates).as("ActiveMQ duplicates").isLessThanOrEqualTo((long) SENDERS * TIMER_BATCH);
        }
    }

    @Test
    @Order(2)
    void graceful_stop_of_the_leader_is_taken_over_within_a_second_without_duplicates() throws Exception {
        HaNode old = group.awaitSoleLeader(group.alive(), START);
        try (HaLoad load = newLoad()) {
            Thread.sleep(WARM_UP.toMillis());
            long termAt = System.currentTimeMillis();
            Thread stopping = new Thread(
                    () -> {
                        try {
                            HaFigures.print(TEST, "sigterm-exit-status", old.terminate());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "ha-terminate-" + old.id());
            stopping.start();
            HaNode next = group.awaitSoleLeader(others(old), TAKEOVER_WAIT);
            stopping.join();
            assertThat(old.isAlive()).as("%s after SIGTERM", old).isFalse();
            Thread.sleep(AFTER_TAKEOVER.toMillis());
            Outcome outcome = finish(load);

            PumpTimeline timeline = timeline(termAt - WARM_UP.toMillis());
            long takeover = timeline.firstPumpingAll(next.id(), allBuckets, termAt)
                            .orElseThrow(() -> new AssertionError(next + " never seen pumping every bucket"))
                    - termAt;
            long firstReady = firstRow(next, JobStatus.Ready, termAt) - termAt;
            long lateness = load.maxLateness(termAt - 1_000, termAt + takeover + 1_000, outcome.end());
            figure("sigterm-takeover-ms", takeover);
            figure("sigterm-first-ready-row-of-new-leader-ms", firstReady);
            figure("sigterm-max-lateness-ms", lateness);
            figure("sigterm-duplicates-pull", load.duplicates(pullTopic()));
            figure("sigterm-duplicates-activemq", load.duplicates(brokerTopic()));
            report(load, outcome);

            assertThat(outcome.allDelivered())
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(timeline.doublePumping())
                    .as("two nodes pumping one bucket")
                    .isEmpty();
            assertThat(takeover)
                    .as("ms from SIGTERM until %s was seen pumping every bucket", next)
                    .isLessThan(GRACEFUL_TAKEOVER.toMillis());
            assertThat(firstReady)
                    .as("first Ready row of new leader %s, ms after SIGTERM", next)
                    .isLessThan(GRACEFUL_TAKEOVER.toMillis());
            assertThat(load.duplicates(pullTopic()))
                    .as("pull duplicates after a graceful stop")
                    .isZero();
            assertThat(load.duplicates(brokerTopic()))
                    .as("ActiveMQ duplicates after a graceful stop")
                    .isZero();
        }
    }

    @Test
    @Order(3)
    void a_leader_frozen_past_its_session_is_fenced_after_it_thaws_and_hands_over_nothing_more() throws Exception {
        HaNode old = group.awaitSoleLeader(group.alive(), START);
        long fencedBefore = old.cluster(GatewayGroup.CLUSTER_CALL_TIMEOUT).fencedCalls();
        try (HaLoad load = newLoad()) {
            Thread.sleep(WARM_UP.toMillis());
            long freezeAt = System.currentTimeMillis();
            old.freeze();
            long frozenBy = System.currentTimeMillis();
            HaNode next;
            long thawAt;
            try {
                next = group.awaitSoleLeader(others(old), TAKEOVER_WAIT);
                // the new leader pumps for a while before the old one wakes up with its stale timers
                Thread.sleep(1_000);
            } finally {
                thawAt = System.currentTimeMillis();
                old.thaw();
            }
            awaitPumpingNothing(old, Duration.ofSeconds(5));
            group.awaitMember(old, REJOIN);
            ClusterView afterThaw = awaitOwnerEverywhere(old, next, REJOIN);
            Thread.sleep(AFTER_TAKEOVER.toMillis());
            Outcome outcome = finish(load);

            PumpTimeline timeline = timeline(freezeAt - WARM_UP.toMillis());
            long takeover = timeline.firstPumpingAll(next.id(), allBuckets, freezeAt)
                            .orElseThrow(() -> new AssertionError(next + " never seen pumping every bucket"))
                    - freezeAt;
            List<OwnershipSampler.Observation> staleClaims = timeline.pumpingAnswers(old.id(), thawAt);
            // a pump Redis ran before SIGSTOP is journaled when its answer is read after SIGCONT: only a job that fell
            // due after the freeze shows a hand-over the fence should have refused
            Map<String, HaLoad.Accepted> accepted = load.accepted();
            List<JobLog.Row> readyByOld = group.jobLog().rows(old.id(), JobStatus.Ready, thawAt);
            Map<Boolean, List<JobLog.Row>> byDueBeforeFreeze = readyByOld.stream()
                    .collect(Collectors.partitioningBy(row -> accepted.containsKey(row.id())
                            && accepted.get(row.id()).isFirstTryDueBy(frozenBy)));
            List<JobLog.Row> dueBeforeFreeze = byDueBeforeFreeze.get(true);
            List<JobLog.Row> fencedHandOvers = byDueBeforeFreeze.get(false);
            long fencedGrowth = afterThaw.fencedCalls() - fencedBefore;
            figure("sigstop-takeover-ms", takeover);
            figure("sigstop-fenced-calls-after-thaw", fencedGrowth);
            figure("sigstop-ready-rows-after-thaw-of-pumps-before-freeze", dueBeforeFreeze.size());
            figure("sigstop-duplicates-pull", load.duplicates(pullTopic()));
            figure("sigstop-duplicates-activemq", load.duplicates(brokerTopic()));
            report(load, outcome);

            assertThat(outcome.allDelivered())
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(timeline.doublePumping())
                    .as("two nodes pumping one bucket")
                    .isEmpty();
            assertThat(staleClaims)
                    .as("answers of thawed %s showing buckets pumping that %s owns", old, next)
                    .isEmpty();
            assertThat(afterThaw.pumping())
                    .as("buckets %s pumps once it rejoined", old)
                    .isEmpty();
            assertThat(fencedHandOvers)
                    .as(
                            "jobs due after SIGSTOP made ready by thawed %s after SIGCONT (%d ms later)",
                            old, thawAt - freezeAt)
                    .isEmpty();
        }
    }

    @Test
    @Order(4)
    void a_leader_cut_off_from_zookeeper_stops_pumping_before_a_new_leader_starts() throws Exception {
        HaNode old = group.awaitSoleLeader(group.alive(), START);
        // a node that reconnected around its proxies (after any reconnect so far) could not be cut off
        group.requireZooKeeperThroughProxies();
        try (HaLoad load = newLoad()) {
            Thread.sleep(WARM_UP.toMillis());
            long cutAt = System.currentTimeMillis();
            old.cutZooKeeper();
            HaNode next;
            try {
                next = group.awaitSoleLeader(others(old), TAKEOVER_WAIT);
                Thread.sleep(1_000);
            } finally {
                old.healZooKeeper();
            }
            group.awaitMember(old, REJOIN);
            Thread.sleep(AFTER_TAKEOVER.toMillis());
            Outcome outcome = finish(load);

            PumpTimeline timeline = timeline(cutAt - WARM_UP.toMillis());
            OptionalLong oldStopped = timeline.firstPumpingNone(old.id(), cutAt);
            OptionalLong nextStarted = timeline.pumpingStartedAfter(next.id(), cutAt);
            assertThat(oldStopped)
                    .as("%s seen pumping nothing after its ZooKeeper link was cut", old)
                    .isPresent();
            assertThat(nextStarted).as("%s seen pumping after the cut", next).isPresent();
            long takeover = timeline.firstPumpingAll(next.id(), allBuckets, cutAt)
                            .orElseThrow(() -> new AssertionError(next + " never seen pumping every bucket"))
                    - cutAt;
            long lateness = load.maxLateness(cutAt - 1_000, cutAt + takeover + 1_000, outcome.end());
            figure("zk-cut-old-stopped-ms", oldStopped.getAsLong() - cutAt);
            figure("zk-cut-new-started-not-before-ms", nextStarted.getAsLong() - cutAt);
            figure("zk-cut-takeover-ms", takeover);
            figure("zk-cut-max-lateness-ms", lateness);
            figure("zk-cut-duplicates-pull", load.duplicates(pullTopic()));
            figure("zk-cut-duplicates-activemq", load.duplicates(brokerTopic()));
            report(load, outcome);

            assertThat(outcome.allDelivered())
                    .as("every accepted job delivered; undelivered %s", load.undelivered())
                    .isTrue();
            assertThat(load.anomalies()).isEmpty();
            assertThat(timeline.doublePumping())
                    .as("two nodes pumping one bucket")
                    .isEmpty();
            assertThat(oldStopped.getAsLong())
                    .as("%s stopped (ms) before %s can have started", old, next)
                    .isLessThanOrEqualTo(nextStarted.getAsLong());
            assertThat(timeline.pumpingAnswers(old.id(), oldStopped.getAsLong()))
                    .as("answers of %s showing it pumping again after it stopped", old)
                    .isEmpty();
            assertThat(group.jobLog().rows(old.id(), JobStatus.Ready, oldStopped.getAsLong()))
                    .as("jobs made ready by %s after it stopped", old)
                    .isEmpty();
            // the journal tells the same story by the gateways' own clock
            List<JobLog.Row> readyByOld = group.jobLog().rows(old.id(), JobStatus.Ready, cutAt);
            long firstReadyByNext = firstRow(next, JobStatus.Ready, cutAt);
            assertThat(readyByOld)
                    .as("Ready rows of %s after the cut, all before the first of %s at %d", old, next, firstReadyByNext)
                    .allMatch(row -> row.at() < firstReadyByNext);
        }
    }

    /** What a scenario's load ended with. */
    private record Outcome(boolean allDelivered, long end) {}

    private HaLoad newLoad() throws Exception {
        return new HaLoad(
                new HaLoad.Plan(
                        pullTopic(),
                        PULL_PER_SECOND,
                        brokerTopic(),
                        BROKER_PER_SECOND,
                        broker.failoverUrl(),
                        MIN_DELAY_MS,
                        MAX_DELAY_MS),
                group::alive);
    }

    // every scenario has topics of its own: jobs of an earlier one cannot blur its counts
    private String pullTopic() {
        return "ha-ms-" + scenario;
    }

    private String brokerTopic() {
        return "amq-ha-ms-" + scenario;
    }

    private Outcome finish(HaLoad load) throws InterruptedException {
        load.stopPushing();
        boolean all = load.awaitAllDelivered(DRAIN);
        return new Outcome(all, System.currentTimeMillis());
    }

    private List<HaNode> others(HaNode node) {
        return group.alive().stream().filter(other -> other != node).toList();
    }

    private PumpTimeline timeline(long from) {
        assertThat(sampler.failures())
                .as("GET /cluster answers that were not a view")
                .isEmpty();
        return new PumpTimeline(sampler.between(from, System.currentTimeMillis()), BUCKETS);
    }

    private long firstRow(HaNode node, JobStatus status, long from) {
        List<JobLog.Row> rows = group.jobLog().rows(node.id(), status, from);
        assertThat(rows).as("%s rows of %s after %d", status, node, from).isNotEmpty();
        return rows.get(0).at();
    }

    private void awaitPumpingNothing(HaNode node, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        ClusterView view = null;
        while (System.nanoTime() < end) {
            try {
                view = node.cluster(GatewayGroup.CLUSTER_CALL_TIMEOUT);
                if (view.pumping().isEmpty()) {
                    return;
                }
            } catch (java.io.IOException e) {
                // still waking up
            }
            Thread.sleep(50);
        }
        throw new AssertionError(node + " still pumps after " + within + ": " + view);
    }

    // the rejoined node's view of the owners catches up with ZooKeeper; it must not keep naming itself
    private ClusterView awaitOwnerEverywhere(HaNode viewer, HaNode owner, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        ClusterView view = viewer.cluster(GatewayGroup.CLUSTER_CALL_TIMEOUT);
        while (!view.buckets().stream().allMatch(bucket -> owner.id().equals(bucket.owner()))) {
            if (System.nanoTime() > end) {
                throw new AssertionError(viewer + " still names other owners than " + owner + " " + within
                        + " after it rejoined: " + view.buckets());
            }
            Thread.sleep(100);
            view = viewer.cluster(GatewayGroup.CLUSTER_CALL_TIMEOUT);
        }
        return view;
    }

    private void report(HaLoad load, Outcome outcome) {
        List<String> lines = new ArrayList<>();
        lines.add(TEST + " scenario " + scenario + ": " + load.summary());
        lines.add("  deliveries per job " + load.deliveryHistogram() + ", Ready rows by host "
                + group.jobLog().countByHost(JobStatus.Ready) + ", all delivered " + outcome.allDelivered());
        lines.forEach(System.out::println);
    }

    private void figure(String name, Object value) {
        HaFigures.print(TEST, name, value);
    }
}
