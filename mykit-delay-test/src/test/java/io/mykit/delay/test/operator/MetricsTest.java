package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * /actuator/prometheus after real pushes and deliveries (shared Redis and MariaDB): counts equal what was pushed and
 * delivered, topic tags only from the allow-list, failures, retries and dead letters of a broker nobody listens on.
 */
class MetricsTest {
    private static final String LISTED = "metl-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String UNLISTED =
            "metu-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String FAILING = "metf-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String PULLED = "metp-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String WAITING = "metw-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String JOURNALED =
            "metj-" + UUID.randomUUID().toString().substring(0, 8);
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(
                "mykit.delay.dispatch.default-target=log",
                "mykit.delay.dispatch.routes[metf-*]=activemq",
                "mykit.delay.dispatch.routes[metp-*]=pull",
                // a port nothing listens on: every send is refused at once
                "mykit.delay.activemq.broker-url=tcp://127.0.0.1:" + TestServers.freePort(),
                "mykit.delay.activemq.send-timeout=1s",
                "mykit.delay.dispatch.retry-base=100ms",
                "mykit.delay.dispatch.retry-cap=200ms",
                "mykit.delay.metrics.topics=" + LISTED + "," + FAILING + "," + JOURNALED,
                "mykit.delay.metrics.sample-interval=300ms");
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static String push(String topic, long delayMs, String extra) {
        Reply reply =
                gateway.client().push("{\"topic\":\"" + topic + "\",\"delay\":" + delayMs + extra + ",\"body\":\"b\"}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }

    @Test
    void pushes_and_deliveries_are_counted_per_target_and_allowed_topic() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(push(LISTED, 0, ""));
        }
        for (int i = 0; i < 2; i++) {
            ids.add(push(UNLISTED, 0, ""));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Scrape now = Scrape.of(gateway.baseUrl());
            return now.sum("mykit_delay_deliveries_total", "target", "log", "topic", LISTED) >= 3
                    && now.sum("mykit_delay_deliveries_total", "target", "log", "topic", "other") >= 2;
        });
        Scrape scrape = Scrape.of(gateway.baseUrl());
        assertThat(scrape.sum("mykit_delay_pushes_total", "outcome", "ok", "topic", LISTED))
                .isEqualTo(3.0);
        assertThat(scrape.sum("mykit_delay_handovers_total", "target", "log", "topic", LISTED))
                .isEqualTo(3.0);
        assertThat(scrape.sum("mykit_delay_deliveries_total", "target", "log", "topic", LISTED))
                .isEqualTo(3.0);
        assertThat(scrape.sum("mykit_delay_deliveries_total", "target", "log", "topic", "other"))
                .isEqualTo(2.0);
        // other tests of this class deliver to the log target too: at least these five
        assertThat(scrape.sum("mykit_delay_lateness_seconds_count", "stage", "handed_over", "target", "log"))
                .isGreaterThanOrEqualTo(5.0);
        assertThat(scrape.sum("mykit_delay_lateness_seconds_count", "stage", "delivered", "target", "log"))
                .isGreaterThanOrEqualTo(5.0);
        assertThat(scrape.find("mykit_delay_lateness_seconds_bucket", "stage", "delivered", "target", "log"))
                .as("a histogram, for quantiles over nodes")
                .isNotEmpty();
        assertThat(scrape.sum("mykit_delay_push_latency_seconds_count", "outcome", "ok"))
                .isGreaterThanOrEqualTo(5.0);
        assertThat(scrape.sum("mykit_delay_push_latency_seconds_sum", "outcome", "ok"))
                .isGreaterThan(0.0);
        // the series count stays bounded: no unlisted topic and no job id ever becomes a tag value
        assertThat(scrape.text()).doesNotContain(UNLISTED);
        ids.forEach(id -> assertThat(scrape.text()).doesNotContain(id));
    }

    @Test
    void journal_batches_commit_times_and_backlogs_are_measured() {
        push(JOURNALED, 0, "");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Scrape.of(gateway.baseUrl()).sum("mykit_delay_journal_batch_size_count", "writer", "state")
                        > 0);
        Scrape scrape = Scrape.of(gateway.baseUrl());
        assertThat(scrape.sum("mykit_delay_journal_batch_size_count", "writer", "push"))
                .isGreaterThan(0.0);
        assertThat(scrape.sum("mykit_delay_journal_batch_size_sum", "writer", "push"))
                .as("every pushed job is one row of a push batch")
                .isEqualTo(scrape.sum("mykit_delay_pushes_total", "outcome", "ok"));
        assertThat(scrape.sum("mykit_delay_journal_commit_seconds_count", "writer", "push"))
                .isGreaterThan(0.0);
        assertThat(scrape.sum("mykit_delay_journal_commit_seconds_count", "writer", "state"))
                .isGreaterThan(0.0);
        assertThat(scrape.find("mykit_delay_journal_backlog", "writer", "push")).hasSize(1);
        assertThat(scrape.find("mykit_delay_journal_backlog", "writer", "state"))
                .hasSize(1);
        assertThat(scrape.sum("mykit_delay_restore_running")).isEqualTo(0.0);
        assertThat(scrape.has("mykit_delay_restore_scanned")).isTrue();
        assertThat(scrape.has("mykit_delay_restore_restored")).isTrue();
        assertThat(scrape.has("mykit_delay_buckets_owned"))
                .as("ownership gauges only in ZooKeeper modes")
                .isFalse();
    }

    @Test
    void sampled_gauges_show_pending_ready_and_in_flight_jobs() {
        for (int i = 0; i < 4; i++) {
            push(WAITING, 3_600_000, "");
        }
        push(PULLED, 0, "");
        push(PULLED, 0, "");
        // the failing topic's jobs end dead within a second or two; after that the counts are stable
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Scrape scrape = Scrape.of(gateway.baseUrl());
            assertThat(scrape.find("mykit_delay_pending"))
                    .as("one series per bucket")
                    .hasSize(16);
            assertThat(scrape.sum("mykit_delay_pending")).isEqualTo(4.0);
            assertThat(scrape.sum("mykit_delay_ready")).isEqualTo(2.0);
            assertThat(scrape.sum("mykit_delay_inflight")).isEqualTo(0.0);
        });
        Reply pulled = gateway.client().get(PULLED, 60_000, 30_000);
        assertThat(pulled.data().isObject()).as(pulled.toString()).isTrue();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Scrape scrape = Scrape.of(gateway.baseUrl());
            assertThat(scrape.sum("mykit_delay_ready")).isEqualTo(1.0);
            assertThat(scrape.sum("mykit_delay_inflight")).isEqualTo(1.0);
        });
        Scrape scrape = Scrape.of(gateway.baseUrl());
        assertThat(scrape.sum("mykit_delay_deliveries_total", "target", "pull", "topic", "other"))
                .isEqualTo(2.0);
        assertThat(scrape.sum("mykit_delay_sample_age_seconds")).isGreaterThanOrEqualTo(0.0);
        assertThat(gateway.client().finish(pulled.data().path("id").asText()).status())
                .isEqualTo(200);
    }

    @Test
    void failed_sends_count_failures_retries_and_dead_letters_and_log_one_line_each() {
        Logger outcomes = (Logger) LoggerFactory.getLogger(DeliveryOutcomes.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        outcomes.addAppender(lines);
        List<String> ids = new ArrayList<>();
        try {
            ids.add(push(FAILING, 0, ",\"tries\":2"));
            ids.add(push(FAILING, 0, ",\"tries\":2"));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> Scrape.of(gateway.baseUrl())
                                    .sum("mykit_delay_dead_letters_total", "target", "activemq", "topic", FAILING)
                            >= 2);
        } finally {
            outcomes.detachAppender(lines);
        }
        Scrape scrape = Scrape.of(gateway.baseUrl());
        assertThat(scrape.sum("mykit_delay_dead_letters_total", "target", "activemq", "topic", FAILING))
                .isEqualTo(2.0);
        assertThat(scrape.sum("mykit_delay_delivery_failures_total", "target", "activemq", "topic", FAILING))
                .as("two tries each")
                .isEqualTo(4.0);
        assertThat(scrape.sum("mykit_delay_retries_total", "target", "activemq", "topic", FAILING))
                .isEqualTo(2.0);
        assertThat(scrape.sum("mykit_delay_deliveries_total", "target", "activemq"))
                .isEqualTo(0.0);
        for (String id : ids) {
            List<ILoggingEvent> mine = lines.list.stream()
                    .filter(e -> e.getFormattedMessage().startsWith("delivery failed: jobId=" + id + " "))
                    .toList();
            assertThat(mine).as("one line per failed try of " + id).hasSize(2);
            for (ILoggingEvent line : mine) {
                assertThat(line.getFormattedMessage())
                        .contains("topic=" + FAILING)
                        .contains("bucket=" + Buckets.of(id, 16))
                        .contains("target=activemq");
                assertThat(line.getMDCPropertyMap()).containsEntry("jobId", id);
            }
            assertThat(mine.get(1).getFormattedMessage()).contains("next=dead");
        }
    }
}
