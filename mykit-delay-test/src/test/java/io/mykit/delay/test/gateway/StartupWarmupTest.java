package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.core.DeliveryLifecycle;
import io.mykit.delay.core.DeliveryTargets;
import io.mykit.delay.queue.journal.StateChangeWriter;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code mykit.delay.http.warmup}: before its port opens the gateway starts delivery and sends itself the whole path of
 * jobs through a loopback connector: pushes due at once, pulled and finished, and pushes due later, looked up and
 * cancelled. Afterwards every warm-up job is journaled ended (Finish or Delete), none waits, is ready or in flight, the
 * topic delivers to pull whatever the default target, the loopback connector is gone and the gateway serves on its own
 * port.
 */
class StartupWarmupTest {
    private static final String TOPIC = "mykit-delay-warmup";
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void the_warm_up_ends_every_job_it_pushed_and_leaves_the_port_serving(CapturedOutput output)
            throws InterruptedException {
        // a default target other than pull: the warm-up's own topic must still be pulled, never sent elsewhere
        gateway = TestGateway.start("mykit.delay.http.warmup=2s", "mykit.delay.dispatch.default-target=log");
        assertThat(gateway.bean(DeliveryLifecycle.class).isRunning())
                .as("delivery running")
                .isTrue();
        assertThat(gateway.bean(DeliveryTargets.class).router().route(TOPIC).name())
                .isEqualTo("pull");
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        JdbcTemplate jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        Map<Integer, Long> byStatus = jdbc
                .queryForList(
                        "SELECT status, COUNT(*) AS n FROM mykit_delay_queue_job WHERE topic = ? GROUP BY status",
                        TOPIC)
                .stream()
                .collect(Collectors.toMap(
                        row -> ((Number) row.get("status")).intValue(), row -> ((Number) row.get("n")).longValue()));
        assertThat(byStatus.keySet())
                .as("warm-up jobs by journal status: Finish and Delete only")
                .containsOnly(3, 4);
        assertThat(byStatus.get(3))
                .as("jobs due at once, pulled and finished in 2 s")
                .isGreaterThan(10);
        assertThat(byStatus.get(4)).as("jobs due later, cancelled").isGreaterThan(10);
        Matcher bursts = Pattern.compile("\\((\\d+) bursts of 100 jobs\\)").matcher(output.getAll());
        assertThat(bursts.find()).as("the warm-up's log line counts its bursts").isTrue();
        assertThat(Long.parseLong(bursts.group(1)))
                .as("bursts of a drain's batch size, one per connector")
                .isGreaterThanOrEqualTo(2);
        assertThat(byStatus.get(3)).as("their jobs finished too").isGreaterThan(200);

        var stats = gateway.client().get("/stats/" + TOPIC).data();
        assertThat(stats.path("pending").asLong()
                        + stats.path("ready").asLong()
                        + stats.path("inFlight").asLong())
                .as("warm-up jobs waiting, ready or in flight")
                .isZero();
        assertThat(stats.path("dead").asLong()).isZero();
        Connector[] connectors =
                ((TomcatWebServer) gateway.webServer()).getTomcat().getService().findConnectors();
        assertThat(connectors).as("only the gateway's own connector").hasSize(1);
        assertThat(gateway.client()
                        .push("{\"topic\":\"after-warmup\",\"delay\":60000}")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void once_the_port_is_open_the_warm_up_topic_takes_no_push() {
        // the next start's warm-up would take and finish a user's job there: refused, and nothing journaled
        gateway = TestGateway.start();
        GatewayClient.Reply single = gateway.client().push("{\"topic\":\"" + TOPIC + "\",\"delay\":0}");
        assertThat(single.status()).isEqualTo(400);
        assertThat(single.json().path("message").asText()).contains("topic").contains(TOPIC);
        GatewayClient.Reply batch = gateway.client()
                .pushBatch("[{\"topic\":\"ok-topic\",\"delay\":60000},{\"topic\":\"" + TOPIC + "\",\"delay\":0}]");
        assertThat(batch.status()).isEqualTo(400);
        assertThat(batch.json().path("message").asText()).contains("[1].topic");
        JdbcTemplate jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM mykit_delay_queue_job", Long.class))
                .isZero();
    }

    @Test
    void the_test_harness_starts_gateways_without_it() {
        gateway = TestGateway.start();
        JdbcTemplate jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM mykit_delay_queue_job WHERE topic = ?", Long.class, TOPIC))
                .isZero();
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void a_warm_up_whose_every_round_fails_gives_up_once_and_the_gateway_still_serves(CapturedOutput output) {
        // the warm-up's own pushes are longer than this body limit: every round fails at its first call
        long launched = System.nanoTime();
        gateway = TestGateway.start("mykit.delay.http.warmup=30s", "mykit.delay.limits.max-body-bytes=10");
        long startedMs = (System.nanoTime() - launched) / 1_000_000;
        List<String> lines = output.getAll()
                .lines()
                .filter(line -> line.contains("Warmed up in"))
                .toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0))
                .as("the second connector is not tried after the first gave up")
                .contains("(every round failed; then not run)")
                .contains("0 calls");
        assertThat(startedMs).as("it gave up instead of running its 30 s").isLessThan(25_000);
        Connector[] connectors =
                ((TomcatWebServer) gateway.webServer()).getTomcat().getService().findConnectors();
        assertThat(connectors).as("only the gateway's own connector").hasSize(1);
        assertThat(gateway.client()
                        .push("{\"topic\":\"after-warmup\",\"delay\":60000,\"body\":\"ok\"}")
                        .status())
                .isEqualTo(200);
    }
}
