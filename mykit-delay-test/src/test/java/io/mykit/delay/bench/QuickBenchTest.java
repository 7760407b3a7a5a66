package io.mykit.delay.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.support.TestServers;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs the bench's quick mode on the test servers, so CI proves every bench path still delivers: single pushes to
 * stream consumers of the Java client (3), a pull drain (10), the Redis memory count (11), a drain to ActiveMQ (7) and
 * the floors' delivery from memory (14). It checks only that exactly the pushed jobs arrived; the speeds it prints are
 * a cold JVM's on a busy CI machine and mean nothing.
 */
class QuickBenchTest {
    private static final List<String> SCENARIOS_COVERED = List.of("3", "7", "10", "11", "14");

    private final String database =
            "mykit_bench_quick_" + UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void dropDatabase() {
        TestServers.dropDatabase(database);
    }

    @Test
    void every_job_pushed_by_the_quick_bench_arrives_once() throws Exception {
        TestServers.RedisEndpoint redis = TestServers.redis();
        TestServers.jdbcUrl(database);
        Properties properties = new Properties();
        properties.setProperty("bench.quick", "true");
        properties.setProperty("bench.scenarios", String.join(",", SCENARIOS_COVERED));
        properties.setProperty("bench.redis.host", redis.host());
        properties.setProperty("bench.redis.port", Integer.toString(redis.port()));
        properties.setProperty("bench.mysql.host", TestServers.LOCALHOST);
        properties.setProperty("bench.mysql.port", Integer.toString(TestServers.mariaDbPort()));
        properties.setProperty("bench.mysql.user", TestServers.jdbcUser());
        properties.setProperty("bench.mysql.password", TestServers.jdbcPassword());
        properties.setProperty("bench.database", database);
        // scenario 3 through the stream consumer style; the drain (10) covers the pulls
        properties.setProperty("bench.late.pull-batch", "0");

        List<Arrivals.Arrival> arrivals =
                new Bench(BenchSettings.fromProperties(properties)).run().all();

        assertThat(arrivals)
                .extracting(arrival -> arrival.scenario().split(" ")[0])
                .containsExactlyInAnyOrderElementsOf(SCENARIOS_COVERED);
        assertThat(arrivals)
                .allSatisfy(arrival ->
                        assertThat(arrival.complete()).as(arrival.toString()).isTrue());
    }
}
