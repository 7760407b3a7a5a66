package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * A tenant's GET /stats costs Redis the same few script runs whatever the number of its topics, and lists at most
 * {@code MAX_LINES} of them, saying so; on a private Redis, so its command counts are this gateway's alone.
 */
class TenantStatsCostTest {
    private static final int MAX_LINES = 1_000;
    private static final int MANY = 3_000;
    private static final int BUCKETS = 4;

    private static OwnRedis redis;
    private static JedisPooled counts;
    private static TestGateway gateway;
    private static TenantHttp http;

    @BeforeAll
    static void start() {
        redis = TestServers.startOwnRedis();
        counts = TestServers.redisClient(redis.host(), redis.port());
        gateway = TestGateway.start(
                redis.host(),
                redis.port(),
                "mykit.delay.buckets=" + BUCKETS,
                "mykit.delay.tenants.many.token=many-token",
                "mykit.delay.tenants.many.topics=many-*",
                "mykit.delay.tenants.other.token=other-token",
                "mykit.delay.tenants.other.topics=other-*");
        http = new TenantHttp(gateway.baseUrl());
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (counts != null) {
            counts.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** One job in each of the topics many-{from}..many-{to - 1}, due in an hour, in batches of 1,000. */
    private static void pushTopics(int from, int to) {
        for (int start = from; start < to; start += 1_000) {
            String batch = IntStream.range(start, Math.min(to, start + 1_000))
                    .mapToObj(i -> "{\"topic\":\"many-" + i + "\",\"delay\":3600000}")
                    .collect(Collectors.joining(",", "[", "]"));
            Answer answer = http.call("many-token", "POST", "/push/batch", batch);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        }
    }

    private static long scriptRuns() {
        Matcher m = Pattern.compile("cmdstat_evalsha:calls=(\\d+)").matcher(counts.info("commandstats"));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** The fewest script runs of three tenant /stats reads (background loops may add a few to one of them). */
    private static long scriptRunsPerStats(List<JsonNode> answers) {
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long before = scriptRuns();
            Answer answer = http.call("many-token", "GET", "/stats", null);
            fewest = Math.min(fewest, scriptRuns() - before);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            answers.add(answer.data());
        }
        return fewest;
    }

    @Test
    void a_tenants_stats_cost_the_same_script_runs_for_ten_topics_and_for_three_thousand() {
        http.push("other-token", "other-1", "k", 3_600_000);
        pushTopics(0, 10);
        List<JsonNode> few = new ArrayList<>();
        long runsForFew = scriptRunsPerStats(few);

        pushTopics(10, MANY);
        List<JsonNode> many = new ArrayList<>();
        long runsForMany = scriptRunsPerStats(many);

        assertThat(runsForMany)
                .as("script runs per /stats with %d topics, with 10: %d", MANY, runsForFew)
                .isLessThanOrEqualTo(runsForFew + BUCKETS)
                .isLessThanOrEqualTo(4L * BUCKETS);
        assertThat(few.get(0).path("topics")).hasSize(10);
        assertThat(few.get(0).path("topicsCut").asBoolean(true)).isFalse();
        JsonNode overview = many.get(0);
        assertThat(overview.path("pending").asLong())
                .as("totals over every topic")
                .isEqualTo(MANY);
        assertThat(overview.path("topicCount").asInt()).isEqualTo(MANY);
        assertThat(overview.path("topicsCut").asBoolean()).isTrue();
        assertThat(overview.path("topics")).hasSize(MAX_LINES);
        assertThat(overview.path("nextDueTime").asLong()).isGreaterThan(System.currentTimeMillis());
        overview.path("topics")
                .forEach(line -> assertThat(line.path("topic").asText()).startsWith("many-"));
    }
}
