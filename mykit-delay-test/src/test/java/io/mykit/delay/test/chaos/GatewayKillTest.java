package io.mykit.delay.test.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The product promise under crashes: a push the gateway answered 200 success for is delivered at least once, whatever
 * happens afterwards. The packaged gateway runs as a child JVM on a private Redis and a journal database of its own;
 * while clients push and pull, it is killed with SIGKILL at random moments and started again on the same port and
 * configuration. Afterwards every accepted id must reach a puller. Duplicates are allowed and counted.
 */
class GatewayKillTest {

    /** Replays the kill timing of an earlier run (its report prints the seed). */
    private static final String SEED_PROPERTY = "mykit.chaos.seed";

    private static final int KILLS = 4;
    private static final int PUSHERS = 3;
    private static final int PULLERS = 4;
    private static final long MIN_LOAD_BEFORE_KILL_MS = 1_000;
    private static final long MAX_LOAD_BEFORE_KILL_MS = 4_000;
    private static final long LOAD_AFTER_LAST_START_MS = 1_000;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(90);
    private static final int MIN_ACCEPTED = 100;
    // small timeouts so that jobs caught mid-flight by a kill come back within seconds
    private static final String DISPATCH_TIMEOUT = "3s";
    private static final String REPAIR_AFTER = "2s";
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private OwnRedis redis;
    private ChildGateway gateway;
    private ChaosLoad load;
    private String database;
    private boolean passed;

    @AfterEach
    void cleanUp() throws Exception {
        // whatever state a failure left: no load threads, no gateway JVM, no private Redis
        if (load != null) {
            load.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (redis != null) {
            redis.close();
        }
        // a failed run keeps its journal for a post-mortem; the failure message names it
        if (passed && database != null) {
            execute("DROP DATABASE IF EXISTS `" + database + "`");
        }
    }

    @Test
    void every_accepted_push_is_delivered_at_least_once_across_repeated_kill_9() throws Exception {
        long begin = System.nanoTime();
        long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
        Random random = new Random(seed);
        String run = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "chaos-" + run;
        String topic = "chaos-" + run;
        database = "mykit_delay_chaos_" + run;
        String jdbcUrl = TestServers.jdbcUrl(database);
        redis = TestServers.startOwnRedis();
        Path logDir =
                Files.createDirectories(Path.of("target", "chaos-logs", prefix)).toAbsolutePath();
        gateway = ChildGateway.of(
                TestServers.freePort(),
                JVM_OPTIONS,
                List.of(
                        "--mykit.delay.embedded.enabled=false",
                        "--mykit.delay.http.warmup=0",
                        "--mykit.delay.redis.host=" + redis.host(),
                        "--mykit.delay.redis.port=" + redis.port(),
                        "--mykit.delay.redis.key-prefix=" + prefix,
                        "--mykit.delay.buckets=" + DelayProperties.DEFAULT_BUCKETS,
                        "--spring.datasource.url=" + jdbcUrl,
                        "--spring.datasource.username=" + TestServers.jdbcUser(),
                        "--spring.datasource.password=" + TestServers.jdbcPassword(),
                        "--mykit.delay.timer.dispatch-timeout=" + DISPATCH_TIMEOUT,
                        "--mykit.delay.journal.repair-after=" + REPAIR_AFTER),
                logDir);

        gateway.start();
        load = new ChaosLoad(gateway.baseUrl(), topic, PUSHERS, PULLERS);
        for (int kill = 1; kill <= KILLS; kill++) {
            Thread.sleep(
                    MIN_LOAD_BEFORE_KILL_MS + random.nextLong(MAX_LOAD_BEFORE_KILL_MS - MIN_LOAD_BEFORE_KILL_MS + 1));
            long pid = gateway.pid();
            assertThat(gateway.kill9())
                    .as(
                            "exit status of gateway pid %d after destroyForcibly(): SIGKILL gives %d",
                            pid, ChildGateway.SIGKILL_EXIT)
                    .isEqualTo(ChildGateway.SIGKILL_EXIT);
            gateway.start();
        }
        Thread.sleep(LOAD_AFTER_LAST_START_MS);
        load.stopPushing();
        long loadEnd = System.nanoTime();

        Map<String, ChaosLoad.Accepted> accepted = load.accepted();
        LossEvidence evidence = new LossEvidence(
                jdbcUrl,
                TestServers.jdbcUser(),
                TestServers.jdbcPassword(),
                redis.host(),
                redis.port(),
                new Keys(prefix, DelayProperties.DEFAULT_BUCKETS),
                topic);
        try {
            await().atMost(DRAIN_TIMEOUT)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> load.undelivered().isEmpty());
        } catch (ConditionTimeoutException e) {
            Set<String> lost = load.undelivered();
            throw new AssertionError(
                    lost.size() + " of " + accepted.size() + " accepted pushes were not delivered "
                            + "within " + DRAIN_TIMEOUT + " after the last restart.\n" + report(seed, begin, loadEnd)
                            + "\nworkers that died: " + load.workerFailures()
                            + "\njournal database " + database + ", gateway logs " + logDir
                            + "\nlast log lines:\n" + gateway.logTail()
                            + "\nlost jobs:" + evidence.describe(lost, accepted, load.startMillis()),
                    e);
        }
        load.stopPulling();
        System.out.println(report(seed, begin, loadEnd));

        assertThat(load.deliveredIds()).as("accepted ids must all be delivered").containsAll(accepted.keySet());
        assertThat(load.anomalies()).as("answers no correct gateway gives").isEmpty();
        assertThat(load.workerFailures()).as("client threads that died").isEmpty();
        assertThat(accepted).as("enough accepted pushes to mean something").hasSizeGreaterThanOrEqualTo(MIN_ACCEPTED);
        assertThat(load.outcomes().getOrDefault("push no answer", 0L))
                .as("pushes that found the gateway down")
                .isPositive();
        passed = true;
    }

    private String report(long seed, long begin, long loadEnd) {
        long now = System.nanoTime();
        return String.format(
                "GatewayKillTest: %d kills (seed %d); pushes accepted %d (%d with client id); "
                        + "deliveries %d of %d distinct ids, duplicates %d; load %.1f s, drain %.1f s, total %.1f s;%n"
                        + "  outcomes %s",
                gateway.starts() - 1,
                seed,
                load.accepted().size(),
                load.accepted().values().stream()
                        .filter(ChaosLoad.Accepted::clientId)
                        .count(),
                load.deliveries(),
                load.deliveredIds().size(),
                load.duplicates(),
                (loadEnd - begin) / 1e9,
                (now - loadEnd) / 1e9,
                (now - begin) / 1e9,
                load.outcomes());
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(
                        TestServers.jdbcUrl(database), TestServers.jdbcUser(), TestServers.jdbcPassword());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
