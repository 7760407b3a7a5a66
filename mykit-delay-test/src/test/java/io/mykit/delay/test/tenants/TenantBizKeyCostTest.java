package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * GET /jobs?bizKey= without a topic reads only the caller's topics: another tenant's many jobs of the same bizKey cost
 * it no rows. Rows read are the server's per-table statistics of this gateway's own journal database.
 */
class TenantBizKeyCostTest {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String BIZ_KEY = "shared-" + RUN;
    private static final int THEIRS = 1_000;

    private static TestGateway gateway;
    private static TenantHttp http;
    private static JdbcTemplate jdbc;
    private static String userstatBefore;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(
                "mykit.delay.tenants.mine.token=mine-token",
                "mykit.delay.tenants.mine.topics=mine-*,exact-" + RUN,
                "mykit.delay.tenants.theirs.token=theirs-token",
                "mykit.delay.tenants.theirs.topics=theirs-*");
        http = new TenantHttp(gateway.baseUrl());
        jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        userstatBefore = jdbc.queryForObject("SELECT @@GLOBAL.userstat", String.class);
        // per-table row statistics (information_schema.TABLE_STATISTICS); a few counters, no change of behaviour
        jdbc.execute("SET GLOBAL userstat = 1");
    }

    @AfterAll
    static void stop() {
        if (jdbc != null && "0".equals(userstatBefore)) {
            jdbc.execute("SET GLOBAL userstat = 0");
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private static long jobRowsRead() {
        Long rows = jdbc.queryForObject(
                "SELECT COALESCE(SUM(ROWS_READ), 0) FROM information_schema.TABLE_STATISTICS"
                        + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'mykit_delay_queue_job'",
                Long.class,
                gateway.database());
        return rows == null ? 0 : rows;
    }

    @Test
    void a_bizkey_look_up_without_a_topic_reads_a_bounded_number_of_rows_whatever_other_tenants_hold() {
        for (int start = 0; start < THEIRS; start += 1_000) {
            String batch = IntStream.range(start, start + 1_000)
                    .mapToObj(
                            i -> "{\"topic\":\"theirs-" + RUN + "\",\"bizKey\":\"" + BIZ_KEY + "\",\"delay\":3600000}")
                    .collect(Collectors.joining(",", "[", "]"));
            Answer pushed = http.call("theirs-token", "POST", "/push/batch", batch);
            assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        }
        String prefixed = http.push("mine-token", "mine-" + RUN, BIZ_KEY, 3_600_000);
        String exact = http.push("mine-token", "exact-" + RUN, BIZ_KEY, 3_600_000);

        long before = jobRowsRead();
        Answer first = http.call("mine-token", "GET", "/jobs?bizKey=" + BIZ_KEY + "&limit=1", null);
        long read = jobRowsRead() - before;

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.data()).hasSize(1);
        assertThat(read)
                .as("job rows read for one page of 1 while another tenant holds %d of the bizKey", THEIRS)
                .isLessThan(50);

        Answer all = http.call("mine-token", "GET", "/jobs?bizKey=" + BIZ_KEY, null);
        assertThat(all.data().findValuesAsText("id")).containsExactlyInAnyOrder(prefixed, exact);
        Answer next = http.call(
                "mine-token",
                "GET",
                "/jobs?bizKey=" + BIZ_KEY + "&limit=1&after="
                        + first.data().get(0).path("id").asText(),
                null);
        assertThat(next.data()).hasSize(1);
        assertThat(next.data().get(0).path("id").asText())
                .isNotEqualTo(first.data().get(0).path("id").asText());
        Answer theirs = http.call("theirs-token", "GET", "/jobs?bizKey=" + BIZ_KEY + "&limit=100", null);
        assertThat(theirs.data()).hasSize(100);
        theirs.data().forEach(job -> assertThat(job.path("topic").asText()).isEqualTo("theirs-" + RUN));
    }
}
