package io.mykit.delay.test.gateway;

import io.mykit.delay.queue.journal.StateChangeWriter;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mykit.delay.http.warmup}: before its port opens the gateway sends itself pushes, lookups, polls and cancels
 * through a loopback connector. Afterwards every warm-up job is journaled cancelled, none waits in Redis, the loopback
 * connector is gone and the gateway serves on its own port.
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
    void the_warm_up_leaves_every_job_it_pushed_cancelled_and_the_port_serving() throws InterruptedException {
        gateway = TestGateway.start("mykit.delay.http.warmup=1s");
        assertThat(gateway.bean(StateChangeWriter.class).flush(5_000)).isTrue();
        JdbcTemplate jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        List<Map<String, Object>> byStatus = jdbc.queryForList(
                "SELECT status, COUNT(*) AS n FROM mykit_delay_queue_job WHERE topic = ? GROUP BY status", TOPIC);
        assertThat(byStatus).as("warm-up jobs by journal status").hasSize(1);
        assertThat(((Number) byStatus.get(0).get("status")).intValue()).as("Delete").isEqualTo(4);
        assertThat(((Number) byStatus.get(0).get("n")).longValue()).as("jobs pushed in 1 s").isGreaterThan(10);

        assertThat(gateway.client().get("/stats?topic=" + TOPIC).data().path("pending").asLong()).isZero();
        Connector[] connectors = ((TomcatWebServer) gateway.webServer()).getTomcat().getService().findConnectors();
        assertThat(connectors).as("only the gateway's own connector").hasSize(1);
        assertThat(gateway.client().push("{\"topic\":\"after-warmup\",\"delay\":60000}").status()).isEqualTo(200);
    }

    @Test
    void no_warm_up_by_default_in_tests() {
        gateway = TestGateway.start();
        JdbcTemplate jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM mykit_delay_queue_job WHERE topic = ?", Long.class, TOPIC))
                .isZero();
    }
}
