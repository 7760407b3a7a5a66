package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.mykit.delay.core.JdbcUrlDefaults;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.test.support.TestServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The push path's group commits overlapping (several journal writers) and the JDBC options the gateway adds to a
 * MySQL/MariaDB URL.
 */
class PushPathTest {
    private static final int WRITERS = 4;
    private static final int IDS = 60;
    private static final int PUSHERS_PER_ID = 6;

    @Test
    void racing_pushes_of_one_id_through_overlapping_writers_journal_it_once_and_answer_duplicate_to_the_rest(
            @Gateway("mykit.delay.journal.writers=" + WRITERS) TestGateway gateway) throws Exception {
        GatewayClient client = gateway.client();
        String topic = "race-" + UUID.randomUUID().toString().substring(0, 6);
        ExecutorService pushers = Executors.newFixedThreadPool(PUSHERS_PER_ID * 2);
        try {
            for (int i = 0; i < IDS; i++) {
                String id = "race-" + i + "-" + UUID.randomUUID();
                CountDownLatch go = new CountDownLatch(1);
                List<Future<GatewayClient.Reply>> replies = new ArrayList<>();
                for (int p = 0; p < PUSHERS_PER_ID; p++) {
                    String body = "{\"topic\":\"" + topic + "\",\"id\":\"" + id + "\",\"delay\":3600000,\"body\":\"p"
                            + p + "\"}";
                    replies.add(pushers.submit(() -> {
                        go.await();
                        return client.push(body);
                    }));
                }
                go.countDown();
                int firsts = 0;
                for (Future<GatewayClient.Reply> reply : replies) {
                    GatewayClient.Reply r = reply.get(30, TimeUnit.SECONDS);
                    assertThat(r.status()).as("push of %s: %s", id, r).isEqualTo(200);
                    assertThat(r.data().asText()).isEqualTo(id);
                    if (!r.json().path("duplicate").asBoolean(false)) {
                        firsts++;
                    }
                }
                assertThat(firsts).as("pushes of %s answered as the first", id).isEqualTo(1);
                assertThat(gateway.journalStatuses(id).stream()
                                .filter(s -> s == 0)
                                .count())
                        .as("WaitPut rows of %s", id)
                        .isEqualTo(1);
            }
        } finally {
            pushers.shutdownNow();
        }
    }

    @Test
    void many_pushers_through_overlapping_writers_are_each_journaled_and_stored(
            @Gateway("mykit.delay.journal.writers=" + WRITERS) TestGateway gateway) throws Exception {
        GatewayClient client = gateway.client();
        String topic = "overlap-" + UUID.randomUUID().toString().substring(0, 6);
        ExecutorService pushers = Executors.newFixedThreadPool(16);
        List<Future<GatewayClient.Reply>> replies = new ArrayList<>();
        try {
            for (int i = 0; i < 800; i++) {
                String body = "{\"topic\":\"" + topic + "\",\"delay\":3600000,\"body\":\"b" + i + "\"}";
                replies.add(pushers.submit(() -> client.push(body)));
            }
            for (Future<GatewayClient.Reply> reply : replies) {
                GatewayClient.Reply r = reply.get(60, TimeUnit.SECONDS);
                assertThat(r.status()).as("push: %s", r).isEqualTo(200);
                String id = r.data().asText();
                // answered only once committed: the journal has it (and Redis, unless Redis failed: it did not)
                GatewayClient.Reply found = client.lookup(id);
                assertThat(found.status()).as("lookup of %s: %s", id, found).isEqualTo(200);
                assertThat(found.data().path("stage").asText())
                        .as("in Redis: %s", found)
                        .isEqualTo("DELAYED");
            }
        } finally {
            pushers.shutdownNow();
        }
    }

    @Test
    void a_push_to_an_idle_gateway_is_committed_on_its_own_request_thread(
            @Gateway("mykit.delay.journal.writers=" + WRITERS) TestGateway gateway) throws Exception {
        String topic = "inline-" + UUID.randomUUID().toString().substring(0, 6);
        for (int i = 0; i < 5; i++) {
            GatewayClient.Reply pushed = gateway.client().push("{\"topic\":\"" + topic + "\",\"delay\":3600000}");
            assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
            gateway.journalStatuses(pushed.data().asText());
            String thread = gateway.bean(Journal.class)
                    .history(pushed.data().asText())
                    .get(0)
                    .thread();
            // the WaitPut row names the thread that committed it: no hand-off to a push writer
            assertThat(thread)
                    .as("thread of push %d", i)
                    .startsWith("http-nio-")
                    .doesNotContain("push-writer");
        }
    }

    @Test
    void a_mysql_url_gets_the_statement_cache_options_it_does_not_name_and_keeps_those_it_does() {
        String url = TestServers.jdbcUrl(
                "mykit_it_push_url_" + UUID.randomUUID().toString().substring(0, 8));
        String plain =
                url.substring(0, url.indexOf('?')) + "?useSSL=false&allowPublicKeyRetrieval=true&cachePrepStmts=false";
        try (TestGateway gateway = TestGateway.start("spring.datasource.url=" + plain)) {
            String used = gateway.bean(HikariDataSource.class).getJdbcUrl();
            assertThat(used)
                    .startsWith(plain)
                    .contains(
                            "&prepStmtCacheSqlLimit=1000000",
                            "&useLocalSessionState=true",
                            "&rewriteBatchedStatements=true")
                    .doesNotContain("cachePrepStmts=true");
            // the driver accepts them on MariaDB: a push is journaled through this URL
            GatewayClient.Reply pushed = gateway.client().push("{\"topic\":\"url\",\"delay\":60000}");
            assertThat(pushed.status()).as("push: %s", pushed).isEqualTo(200);
        } finally {
            TestServers.dropDatabase(plain.substring(plain.lastIndexOf('/') + 1, plain.indexOf('?')));
        }
    }

    @Test
    void url_options_are_added_only_to_mysql_urls_and_not_over_data_source_properties() {
        Properties none = new Properties();
        assertThat(JdbcUrlDefaults.apply("jdbc:h2:file:./data/j;MODE=MySQL", none))
                .isEqualTo("jdbc:h2:file:./data/j;MODE=MySQL");
        assertThat(JdbcUrlDefaults.apply("jdbc:mysql://db:3306/j", none))
                .startsWith("jdbc:mysql://db:3306/j?cachePrepStmts=true&")
                .contains("&useLocalSessionState=true");
        assertThat(JdbcUrlDefaults.apply("jdbc:mysql://db/j?", none))
                .startsWith("jdbc:mysql://db/j?cachePrepStmts=true&");
        Properties given = new Properties();
        given.setProperty("useLocalSessionState", "false");
        assertThat(JdbcUrlDefaults.apply("jdbc:mysql://db/j?CACHEPREPSTMTS=false", given))
                .startsWith("jdbc:mysql://db/j?CACHEPREPSTMTS=false&")
                .doesNotContain("useLocalSessionState", "cachePrepStmts=");
    }
}
