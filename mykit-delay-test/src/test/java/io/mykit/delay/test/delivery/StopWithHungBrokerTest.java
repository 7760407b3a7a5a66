package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.PrefixedRedis;
import io.mykit.delay.test.support.SilentPeer;
import io.mykit.delay.test.support.TcpProxy;
import io.mykit.delay.test.support.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/**
 * A graceful stop while the brokers never answer: ActiveMQ over the README's {@code failover:} URL with nobody
 * listening (the client's start waits for ever for a broker to reach), ActiveMQ gone silent behind a proxy after the
 * connection was made (a commit waits for an answer that never comes), and RocketMQ with a name server that accepts and
 * stays silent. Senders are caught inside the broker clients, more pushes are taken, then the gateway stops: it must
 * end within the broker stop wait plus the clients' close, with every accepted push journaled, the journal state writer
 * flushed (no push group left marked as not yet in Redis), and each job the brokers held still alive in Redis and not
 * ended in the journal, so the next start delivers it.
 */
class StopWithHungBrokerTest {
    private static final int BUCKETS = 1;
    private static final Duration STOP_WAIT = Duration.ofSeconds(1);
    /** The stop wait, closing the broker clients (2 s at most) and the rest of a context close. */
    private static final Duration STOP_BOUND = STOP_WAIT.plus(Duration.ofSeconds(5));

    private static final Set<Integer> ENDED =
            Set.of(JobStatus.Finish.code(), JobStatus.Delete.code(), JobStatus.Dead.code());

    private static SilentPeer silentNameServer;
    private static PrefixedRedis redis;
    private static final Set<TestGateway> STOP_ATTEMPTED = ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void start() {
        silentNameServer = SilentPeer.start();
        redis = PrefixedRedis.connect();
    }

    @AfterAll
    static void stop() {
        silentNameServer.close();
        redis.close();
    }

    @Test
    void a_stop_with_activemq_over_failover_to_nobody_and_a_silent_rocketmq_name_server_ends_in_time() {
        String url = "failover:(tcp://127.0.0.1:" + TestServers.freePort() + ")";
        Set<Thread> before = senderThreads();
        TestGateway gateway = TestGateway.start(settings(
                url,
                "mykit.delay.dispatch.routes[stuck-rmq-*]=rocketmq",
                "mykit.delay.rocketmq.namesrv-addr=127.0.0.1:" + silentNameServer.port()));
        try {
            long asked = System.nanoTime();
            GatewayClient.Reply health = gateway.client().get("/actuator/health/activemq");
            // the probe is given up after 3 s
            assertThat((System.nanoTime() - asked) / 1_000_000)
                    .as("ms the health endpoint took")
                    .isLessThan(5_000);
            assertThat(health.json().path("status").asText())
                    .as(health.toString())
                    .isEqualTo("DOWN");
            stopWhileSendersAreStuck(
                    gateway, before, Map.of("activemq", "org.apache.activemq", "rocketmq", "org.apache.rocketmq"));
            // the probe gave up by itself instead of leaving a thread and a connection waiting for the broker
            await().atMost(Duration.ofSeconds(6))
                    .untilAsserted(() -> assertThat(liveThreads("mykit-health-activemq"))
                            .as("health probe threads still waiting for ActiveMQ")
                            .isZero());
        } finally {
            cleanUp(gateway);
        }
    }

    @Test
    void a_stop_with_activemq_gone_silent_in_the_middle_of_a_commit_ends_in_time() throws Exception {
        Set<Thread> before = senderThreads();
        try (TestActiveMq broker = TestActiveMq.start();
                TcpProxy proxy = new TcpProxy("127.0.0.1", broker.port())) {
            TestGateway gateway = TestGateway.start(settings("tcp://127.0.0.1:" + proxy.port()));
            try {
                String warm = push(gateway, "stuck-amq-warm", 0);
                await().atMost(Duration.ofSeconds(15))
                        .until(() -> gateway.journalStatuses(warm).contains(JobStatus.Finish.code()));
                // the connection is up; from here on the broker takes bytes and answers none, as a hung one does
                proxy.freeze();
                stopWhileSendersAreStuck(gateway, before, Map.of("activemq", "org.apache.activemq"));
            } finally {
                cleanUp(gateway);
            }
        }
    }

    private static String[] settings(String activeMqUrl, String... more) {
        List<String> settings = new ArrayList<>(List.of(
                "mykit.delay.buckets=" + BUCKETS,
                "mykit.delay.dispatch.routes[stuck-amq-*]=activemq",
                "mykit.delay.activemq.broker-url=" + activeMqUrl,
                "mykit.delay.dispatch.senders=2",
                "mykit.delay.dispatch.backlog=4",
                "mykit.delay.dispatch.backlog-wait=1s",
                "mykit.delay.dispatch.retry-base=200ms",
                "mykit.delay.dispatch.retry-cap=1s",
                "mykit.delay.dispatch.stop-wait=" + STOP_WAIT.toMillis() + "ms"));
        settings.addAll(List.of(more));
        return settings.toArray(String[]::new);
    }

    /**
     * Pushes jobs to each target's topic and waits for one of its senders inside the broker client, pushes more (due at
     * once to the pull queue, and later to the stuck targets), stops the gateway and checks what the stop left.
     */
    private static void stopWhileSendersAreStuck(
            TestGateway gateway, Set<Thread> before, Map<String, String> clientPackageByTarget) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<String> accepted = new ArrayList<>();
        List<String> handedToBrokers = new ArrayList<>();
        for (String target : clientPackageByTarget.keySet()) {
            String topic = topicOf(target, run);
            for (int i = 0; i < 6; i++) {
                handedToBrokers.add(push(gateway, topic, 20L * i));
            }
        }
        accepted.addAll(handedToBrokers);
        clientPackageByTarget.forEach((target, clientPackage) ->
                await().atMost(Duration.ofSeconds(30)).until(() -> senderInsideClient(before, target, clientPackage)));
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            accepted.add(push(gateway, "stop-pull-" + run, 0));
            for (String target : clientPackageByTarget.keySet()) {
                waiting.add(push(gateway, topicOf(target, run), 60_000));
            }
        }
        accepted.addAll(waiting);

        long started = System.nanoTime();
        STOP_ATTEMPTED.add(gateway);
        assertTimeoutPreemptively(STOP_BOUND, gateway::stop, "the stop waited on a broker");
        System.out.println("stop with hung brokers " + clientPackageByTarget.keySet() + ": "
                + (System.nanoTime() - started) / 1_000_000 + " ms");

        Map<String, Integer> journal = journaledStatuses(gateway.database());
        assertThat(journal.keySet()).as("accepted pushes in the journal").containsAll(accepted);
        assertThat(storingRows(gateway.database()))
                .as("push groups still marked as not yet in Redis: the journal state writer was not flushed")
                .isZero();
        for (String id : handedToBrokers) {
            assertThat(journal.get(id))
                    .as("journal status of " + id + ", which no broker took")
                    .isNotIn(ENDED);
        }
        Keys keys = new Keys(gateway.keyPrefix(), BUCKETS);
        UnifiedJedis client = redis.client();
        for (String id : handedToBrokers) {
            int bucket = Buckets.of(id, BUCKETS);
            assertThat(client.hexists(keys.pool(bucket), id))
                    .as(id + " still in the Redis pool")
                    .isTrue();
            boolean inFlight = client.zscore(keys.inflight(bucket), id) != null;
            boolean due = client.zscore(keys.dueSlice(bucket, id), id) != null;
            assertThat(inFlight || due)
                    .as(id + " in flight or waiting in Redis")
                    .isTrue();
        }
        for (String id : waiting) {
            int bucket = Buckets.of(id, BUCKETS);
            assertThat(client.zscore(keys.dueSlice(bucket, id), id))
                    .as(id + " waiting in Redis")
                    .isNotNull();
        }
    }

    private static String topicOf(String target, String run) {
        return "stuck-" + (target.equals("activemq") ? "amq" : "rmq") + "-" + run;
    }

    private static String push(TestGateway gateway, String topic, long delayMs) {
        GatewayClient.Reply reply =
                gateway.client().push("{\"topic\":\"" + topic + "\",\"delay\":" + delayMs + ",\"body\":\"b\"}");
        assertThat(reply.success()).as(reply.toString()).isTrue();
        return reply.data().asText();
    }

    /** Sender threads alive now: a gateway started later has its own. */
    private static Set<Thread> senderThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("mykit-send-"))
                .collect(Collectors.toSet());
    }

    /** True when a sender of {@code target} (not one of {@code before}) runs code of the broker client now. */
    private static boolean senderInsideClient(Set<Thread> before, String target, String clientPackage) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(entry -> entry.getKey().getName().startsWith("mykit-send-" + target + "-"))
                .filter(entry -> !before.contains(entry.getKey()))
                .anyMatch(entry -> Arrays.stream(entry.getValue())
                        .anyMatch(frame -> frame.getClassName().startsWith(clientPackage)));
    }

    private static long liveThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(name))
                .count();
    }

    private static Map<String, Integer> journaledStatuses(String database) {
        Map<String, Integer> statuses = new HashMap<>();
        try (Connection connection = connect(database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, status FROM mykit_delay_queue_job")) {
            while (rows.next()) {
                statuses.put(rows.getString(1), rows.getInt(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the journal of " + database, e);
        }
        return statuses;
    }

    private static long storingRows(String database) {
        try (Connection connection = connect(database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM mykit_delay_queue_storing")) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the storing rows of " + database, e);
        }
    }

    private static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(
                TestServers.jdbcUrl(database), TestServers.jdbcUser(), TestServers.jdbcPassword());
    }

    /** Stops a gateway whose test failed before its own bounded stop; a stop that hung is not tried again. */
    private static void cleanUp(TestGateway gateway) {
        if (!STOP_ATTEMPTED.contains(gateway)) {
            gateway.stop();
        }
        TestServers.dropDatabase(gateway.database());
        redis.deleteKeys(gateway.keyPrefix());
    }
}
