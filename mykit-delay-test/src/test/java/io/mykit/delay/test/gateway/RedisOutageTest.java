package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.timer.BucketTimer;
import io.mykit.delay.queue.timer.TimerGroup;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A private Redis (never the shared one) goes away and comes back. Mechanism under test: a push journals the job with a
 * storing row before touching Redis; when the Redis step fails the push is accepted all the same (200: the journal has
 * it, and a 503 would make a client without ids push it twice) and the storing row stays; the stranded-job repairer
 * re-adds the jobs of storing rows (and WaitPut rows) older than repair-after once Redis answers. Being private, its
 * command counts are this gateway's alone: waiting long-polls leave it alone.
 */
class RedisOutageTest {
    // more than two of the repairer's pages (500)
    private static final int STRANDED_JOBS = 1_200;
    private static OwnRedis redis;
    private static TestGateway gateway;
    /** One thread per waiting poll: they must all wait at once, whatever the machine's core count. */
    private static final ExecutorService IDLE_POLLERS = Executors.newFixedThreadPool(20);

    @BeforeAll
    static void start() {
        redis = TestServers.startOwnRedis();
        gateway = TestGateway.start(
                redis.host(), redis.port(), "mykit.delay.journal.repair-after=1s", "mykit.delay.redis.timeout=500ms");
    }

    @AfterAll
    static void stop() {
        IDLE_POLLERS.shutdownNow();
        gateway.close();
        redis.close();
    }

    @Test
    void job_journaled_while_redis_was_down_is_delivered_once_redis_returns() {
        String topic = "outage-" + UUID.randomUUID().toString().substring(0, 8);
        String id = "outage-job-" + UUID.randomUUID();
        redis.stop();
        try {
            Reply reply = gateway.client().push("{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"delay\":0}");
            assertThat(reply.status())
                    .as("a push journaled while Redis is down: " + reply)
                    .isEqualTo(200);
            assertThat(reply.data().asText()).isEqualTo(id);
            Reply anonymous = gateway.client().push("{\"topic\":\"" + topic + "\",\"delay\":0}");
            assertThat(anonymous.status()).as(anonymous.toString()).isEqualTo(200);
        } finally {
            redis.restart();
        }
        List<String> pulled = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Reply reply = gateway.client().get(topic, 30_000, 15_000);
            assertThat(reply.data().isObject())
                    .as("job " + (i + 1) + " of 2 after Redis returned: " + reply)
                    .isTrue();
            pulled.add(reply.data().path("id").asText());
            assertThat(gateway.client().finish(pulled.get(i)).status()).isEqualTo(200);
        }
        assertThat(pulled).doesNotHaveDuplicates().contains(id);
        assertThat(gateway.client().get(topic, 30_000, 1_500).data().isNull())
                .as("each delivered once")
                .isTrue();
    }

    /**
     * A pull that meets Redis down answers 503 with the JSON error, whether its first look fails (answered inside the
     * handler) or a look while it waits does (answered on the async response, DirectPollAnswer); neither hangs. The
     * answer says "redis unavailable" and a request id; where Redis is and what the driver said is in the log only.
     */
    @Test
    void a_pull_answers_503_json_when_redis_is_down_at_its_first_look_or_while_it_waits() throws Exception {
        String topic = "outage-pull-" + UUID.randomUUID().toString().substring(0, 8);
        // waits past the next re-check of its topic (pull.poll-interval, 5 s), which meets Redis down
        CompletableFuture<Reply> waiting =
                CompletableFuture.supplyAsync(() -> gateway.client().get(topic, 30_000, 8_000));
        PullTarget pull = gateway.bean(PullTarget.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == 1);
        try (FailureLog failures = FailureLog.capture()) {
            redis.stop();
            Reply atOnce = gateway.client().get(topic, 30_000, 1_000);
            assertThat(atOnce.status()).as("first look fails: " + atOnce).isEqualTo(503);
            assertThat(atOnce.json().path("success").asBoolean(true))
                    .as(atOnce.toString())
                    .isFalse();
            Reply later = waiting.get(30, TimeUnit.SECONDS);
            assertThat(later.status())
                    .as("a look while waiting fails: " + later)
                    .isEqualTo(503);
            assertThat(later.json().path("code").asInt()).as(later.toString()).isEqualTo(503);
            for (Reply failed : List.of(atOnce, later)) {
                assertThat(failed.toString())
                        .doesNotContain(Integer.toString(redis.port()))
                        .doesNotContain("127.0.0.1");
                assertThat(failures.lineOf(failed, "redis unavailable"))
                        .startsWith("request ")
                        .contains("redis unavailable: ");
            }
        } finally {
            redis.restart();
        }
    }

    /**
     * A crash between a push group's commit and its Redis add leaves its storing row: the repairer reads the group's
     * jobs in pages, so a group larger than a page loses and repeats none.
     */
    @Test
    void a_stranded_push_group_larger_than_a_repair_page_is_delivered_once() {
        strandedJobsAreEachDeliveredOnce(false);
    }

    /**
     * Rows an older version left WaitPut (or a dead letter respawned when the node died) at one update time: the
     * repairer pages them by (update time, id), so pages that split one instant's rows lose and repeat none.
     */
    @Test
    void jobs_stranded_in_waitput_at_one_instant_across_several_repair_pages_are_each_delivered_once() {
        strandedJobsAreEachDeliveredOnce(true);
    }

    private void strandedJobsAreEachDeliveredOnce(boolean waitPutRows) {
        String topic = "stranded-" + UUID.randomUUID().toString().substring(0, 8);
        List<Job> jobs = new ArrayList<>();
        long createTime = System.currentTimeMillis();
        for (int i = 0; i < STRANDED_JOBS; i++) {
            jobs.add(new Job(
                    "stranded-" + i + "-" + UUID.randomUUID(), topic, null, null, 0, 0, 0, 0, "s" + i, createTime));
        }
        String group = gateway.bean(Journal.class).insertWaitPut(jobs, "test-crash", createTime - 5_000);
        if (waitPutRows) {
            JdbcTemplate jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
            assertThat(jdbc.update("UPDATE mykit_delay_queue_job SET status = 0 WHERE topic = ?", topic))
                    .isEqualTo(STRANDED_JOBS);
            gateway.bean(Journal.class).confirmGroups(List.of(group));
        }

        Set<String> pulled = new HashSet<>();
        List<String> repeated = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Reply reply = gateway.client().get("/get/" + topic + "/batch?count=200&ttr=60000&timeout=1000");
            for (JsonNode job : reply.data()) {
                String id = job.path("id").asText();
                if (!pulled.add(id)) {
                    repeated.add(id);
                }
                assertThat(gateway.client().finish(id).status()).isEqualTo(200);
            }
            return pulled.size() >= STRANDED_JOBS;
        });
        assertThat(repeated).as("jobs delivered twice").isEmpty();
        assertThat(pulled)
                .containsExactlyInAnyOrderElementsOf(
                        jobs.stream().map(Job::getId).toList());
    }

    @Test
    void timers_survive_a_redis_outage_and_deliver_afterwards() {
        TimerGroup timers = gateway.bean(TimerGroup.class);
        long failuresBefore =
                timers.timers().stream().mapToLong(BucketTimer::failures).sum();
        redis.stop();
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> timers.timers().stream()
                                    .mapToLong(BucketTimer::failures)
                                    .sum()
                            > failuresBefore);
        } finally {
            redis.restart();
        }
        assertThat(timers.timers()).allMatch(BucketTimer::isRunning);

        String topic = "after-outage-" + UUID.randomUUID().toString().substring(0, 8);
        String id = gateway.client()
                .push("{\"topic\":\"" + topic + "\",\"delay\":200}")
                .data()
                .asText();
        Reply pulled = gateway.client().get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText()).isEqualTo(id);
    }

    /** Waiting long-polls cost Redis nothing until a hand-over wakes their topic (pull.poll-interval: its default). */
    @Test
    void idle_long_polls_on_many_topics_scan_no_bucket_while_they_wait() throws Exception {
        int topics = 20;
        String run = UUID.randomUUID().toString().substring(0, 6);
        PullTarget pull = gateway.bean(PullTarget.class);
        List<CompletableFuture<Reply>> polls = new ArrayList<>();
        for (int i = 0; i < topics; i++) {
            // the polls outlast the measurement however slow the machine; a job for each ends them afterwards
            String path =
                    "/get/idle-" + run + "-" + i + (i % 2 == 0 ? "?timeout=30000" : "/batch?count=5&timeout=30000");
            polls.add(CompletableFuture.supplyAsync(() -> gateway.client().get(path), IDLE_POLLERS));
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> pull.waitingPolls() == topics);

        // the window measured: the polls wait, nothing is pushed; the safety re-check (seconds apart) may fall into it
        // once: one scan of the buckets per topic
        long scans = llensOn("idle-" + run, Duration.ofSeconds(3));
        int buckets = gateway.bean(DelayProperties.class).getBuckets();
        assertThat(scans)
                .as("LLEN calls in 3 s of %d waiting polls", topics)
                .isLessThanOrEqualTo((long) topics * buckets);
        for (int i = 0; i < topics; i++) {
            gateway.client().push("{\"topic\":\"idle-" + run + "-" + i + "\",\"delay\":0}");
        }
        for (CompletableFuture<Reply> poll : polls) {
            Reply answer = poll.get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        }
    }

    /** The LLENs Redis runs on keys holding {@code marker} during {@code window} (MONITOR: the Redis is ours). */
    private static long llensOn(String marker, Duration window) throws InterruptedException {
        AtomicLong seen = new AtomicLong();
        CountDownLatch watching = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        Jedis monitor = new Jedis(redis.host(), redis.port());
        Thread reader = new Thread(
                () -> {
                    try {
                        monitor.monitor(new JedisMonitor() {
                            @Override
                            public void onCommand(String command) {
                                watching.countDown();
                                if (command.contains("\"LLEN\"") && command.contains(marker)) {
                                    seen.incrementAndGet();
                                }
                            }
                        });
                    } catch (JedisException closed) {
                        ended.countDown();
                    }
                },
                "llen-monitor");
        reader.start();
        try (Jedis ping = new Jedis(redis.host(), redis.port(), 30_000)) {
            // MONITOR shows commands from its start on: the first one seen proves it has started
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ping.ping();
                return watching.getCount() == 0;
            });
        }
        long counted = seen.get();
        Thread.sleep(window.toMillis());
        long inWindow = seen.get() - counted;
        monitor.close();
        assertThat(ended.await(5, TimeUnit.SECONDS))
                .as("monitor connection closed")
                .isTrue();
        return inWindow;
    }
}
