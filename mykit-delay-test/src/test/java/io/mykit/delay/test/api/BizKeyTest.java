package io.mykit.delay.test.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GET /jobs?bizKey= finds a key's jobs; DELETE /jobs?bizKey=&topic= cancels its pending ones for good. */
class BizKeyTest {
    private static final long A_DAY_MS = 86_400_000L;

    @Gateway("mykit.delay.pull.poll-interval=50ms")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String push(String topic, String bizKey, long delay) {
        Reply pushed =
                client.push("{\"topic\":\"" + topic + "\",\"bizKey\":\"" + bizKey + "\",\"delay\":" + delay + "}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        return pushed.data().asText();
    }

    private static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static Reply find(String query) {
        return client.raw("GET", "/jobs?" + query, null, null);
    }

    private static Reply cancel(String query) {
        return client.raw("DELETE", "/jobs?" + query, null, null);
    }

    private static List<String> ids(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        reply.data().forEach(job -> ids.add(job.path("id").asText()));
        return ids;
    }

    private static String status(String id) {
        return client.lookup(id).data().path("status").asText();
    }

    @Test
    void lookup_finds_every_job_of_the_key_by_id_in_pages_and_narrows_to_a_topic() throws InterruptedException {
        String bizKey = unique("order");
        String topicA = unique("bk-a");
        String topicB = unique("bk-b");
        List<String> inA = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inA.add(push(topicA, bizKey, A_DAY_MS));
        }
        String inB = push(topicB, bizKey, A_DAY_MS);
        push(topicA, bizKey + "-other", A_DAY_MS);
        List<String> all = new ArrayList<>(inA);
        all.add(inB);
        all.sort(null);

        assertThat(ids(find("bizKey=" + q(bizKey)))).isEqualTo(all);
        assertThat(ids(find("bizKey=" + q(bizKey) + "&topic=" + topicA)))
                .isEqualTo(inA.stream().sorted().toList());
        List<String> firstPage = ids(find("bizKey=" + q(bizKey) + "&limit=2"));
        assertThat(firstPage).isEqualTo(all.subList(0, 2));
        assertThat(ids(find("bizKey=" + q(bizKey) + "&limit=2&after=" + firstPage.get(1))))
                .isEqualTo(all.subList(2, 4));
        assertThat(ids(find("bizKey=" + q(unique("nobody"))))).isEmpty();

        // journal status changes settle first, so the page and the single look-up read the same row
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000)).isTrue();
        JsonNode job = find("bizKey=" + q(bizKey) + "&topic=" + topicB).data().get(0);
        assertThat(job.path("id").asText()).isEqualTo(inB);
        assertThat(job.path("bizKey").asText()).isEqualTo(bizKey);
        assertThat(job.path("topic").asText()).isEqualTo(topicB);
        assertThat(job.path("status").asText()).isEqualTo("Delay");
        assertThat(job.path("stage").asText()).isEqualTo("DELAYED");
        assertThat(job).isEqualTo(client.lookup(inB).data());
    }

    @Test
    void cancel_ends_the_pending_jobs_of_the_key_in_that_topic_only_and_no_restore_brings_them_back() {
        String bizKey = unique("order");
        String cancelled = unique("bk-cancel");
        String kept = unique("bk-kept");
        long delay = 4_000;
        long pushedAt = System.currentTimeMillis();
        List<String> doomed = List.of(push(cancelled, bizKey, delay), push(cancelled, bizKey, delay));
        String survivor = push(kept, bizKey, delay);
        String otherKey = push(cancelled, bizKey + "-other", delay);

        Reply reply = cancel("bizKey=" + q(bizKey) + "&topic=" + cancelled);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.data().path("cancelled"))
                .extracting(JsonNode::asText)
                .containsExactlyElementsOf(doomed.stream().sorted().toList());
        assertThat(reply.data().path("refused").isEmpty()).as(reply.toString()).isTrue();
        doomed.forEach(id -> assertThat(status(id)).isEqualTo("Delete"));
        assertThat(status(survivor)).isIn("WaitPut", "Delay");
        assertThat(status(otherKey)).isIn("WaitPut", "Delay");

        // Redis wiped and rebuilt from the journal, past-due jobs included: only what was not cancelled comes back
        assertThat(client.raw("POST", "/admin/clear", null, null).status()).isEqualTo(200);
        Reply restored = client.raw("POST", "/admin/restore?expire=true", null, null);
        assertThat(restored.status()).as(restored.toString()).isEqualTo(200);
        assertThat(restored.data().path("restored").asLong())
                .as(restored.toString())
                .isGreaterThanOrEqualTo(2);

        long untilDueAndMore = Math.max(0, pushedAt + delay - System.currentTimeMillis()) + 2_000;
        Reply other = client.get(cancelled, 30_000, untilDueAndMore);
        assertThat(other.data().path("id").asText())
                .as("the other key's job in the same topic")
                .isEqualTo(otherKey);
        assertThat(client.finish(otherKey).status()).isEqualTo(200);
        assertThat(client.get(cancelled, 30_000, 1_000).data().isNull())
                .as("a cancelled job was delivered")
                .isTrue();
        assertThat(client.get(kept, 30_000, 30_000).data().path("id").asText()).isEqualTo(survivor);
        doomed.forEach(id -> assertThat(status(id)).isEqualTo("Delete"));

        Reply again = cancel("bizKey=" + q(bizKey) + "&topic=" + cancelled);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.data().path("cancelled").isEmpty())
                .as("nothing pending is left: " + again)
                .isTrue();
    }

    @Test
    void cancel_reports_a_job_already_handed_over_and_cancels_the_rest() {
        String bizKey = unique("order");
        String topic = unique("bk-reserved");
        String reserved = push(topic, bizKey, 0);
        Reply pulled = client.get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText()).as(pulled.toString()).isEqualTo(reserved);
        String pending = push(topic, bizKey, A_DAY_MS);

        Reply reply = cancel("bizKey=" + q(bizKey) + "&topic=" + topic);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.data().path("cancelled")).extracting(JsonNode::asText).containsExactly(pending);
        assertThat(reply.data().path("refused").path(reserved).asText()).contains("handed over");
        assertThat(status(pending)).isEqualTo("Delete");
        assertThat(client.finish(reserved).status())
                .as("the reservation still stands")
                .isEqualTo(200);
    }

    @Test
    void cancel_answers_a_page_at_a_time_and_says_where_the_next_one_starts() {
        String bizKey = unique("order");
        String topic = unique("bk-page");
        List<String> pending = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pending.add(push(topic, bizKey, A_DAY_MS));
        }
        pending.sort(null);

        Reply first = cancel("bizKey=" + q(bizKey) + "&topic=" + topic + "&limit=2");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.data().path("cancelled")).extracting(JsonNode::asText).isEqualTo(pending.subList(0, 2));
        assertThat(first.data().path("more").asBoolean()).as(first.toString()).isTrue();
        assertThat(first.data().path("next").asText()).isEqualTo(pending.get(1));

        Reply second = cancel("bizKey=" + q(bizKey) + "&topic=" + topic + "&limit=2&after=" + pending.get(1));
        assertThat(second.data().path("cancelled")).extracting(JsonNode::asText).isEqualTo(pending.subList(2, 4));
        Reply last = cancel("bizKey=" + q(bizKey) + "&topic=" + topic + "&limit=2&after=" + pending.get(3));
        assertThat(last.data().path("cancelled")).extracting(JsonNode::asText).containsExactly(pending.get(4));
        assertThat(last.data().path("more").asBoolean()).as(last.toString()).isFalse();
        assertThat(last.data().path("next").isNull()).as(last.toString()).isTrue();
        pending.forEach(id -> assertThat(status(id)).isEqualTo("Delete"));
    }

    @Test
    void a_lone_surrogate_in_a_text_field_is_a_400_naming_it_and_stores_nothing() {
        String topic = unique("bk-utf16");
        for (String field : List.of("bizKey", "subtopic", "body")) {
            Reply refused = client.push("{\"topic\":\"" + topic + "\",\"" + field + "\":\"k\\ud800\",\"delay\":0}");
            assertRefused(refused, field);
        }
        Reply pair = client.push("{\"topic\":\"" + topic + "\",\"bizKey\":\"k\\ud83d\\ude00\",\"delay\":0}");
        assertThat(pair.status()).as("a surrogate pair is a character: " + pair).isEqualTo(200);
        assertThat(ids(find("bizKey=" + q("k\ud83d\ude00"))))
                .containsExactly(pair.data().asText());
        assertThat(ids(find("bizKey=" + q("k") + "&topic=" + topic))).isEmpty();
    }

    @ParameterizedTest(name = "GET /jobs?{0} -> 400 on {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "topic=t1|bizKey",
                "bizKey=|bizKey",
                "bizKey=%01order|bizKey",
                "bizKey=LONG129|bizKey",
                "bizKey=k&topic=a%20b|topic",
                "bizKey=k&topic=LONG129|topic",
                "bizKey=k&limit=0|limit",
                "bizKey=k&limit=101|limit",
                "bizKey=k&limit=abc|limit",
                "bizKey=k&after=a%20b|after"
            })
    void lookup_with_bad_input_is_a_400_naming_the_parameter(String query, String field) {
        assertRefused(find(query.replace("LONG129", "k".repeat(129))), field);
    }

    @ParameterizedTest(name = "DELETE /jobs?{0} -> 400 on {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "bizKey=KEY|topic",
                "topic=TOPIC|bizKey",
                "bizKey=&topic=TOPIC|bizKey",
                "bizKey=KEY&topic=|topic",
                "bizKey=LONG129&topic=TOPIC|bizKey",
                "bizKey=KEY&topic=LONG129|topic",
                "bizKey=KEY%00&topic=TOPIC|bizKey",
                "bizKey=KEY&topic=TOPIC%2F..|topic",
                "bizKey=KEY&topic=TOPIC&limit=0|limit",
                "bizKey=KEY&topic=TOPIC&limit=1001|limit",
                "bizKey=KEY&topic=TOPIC&after=a%20b|after"
            })
    void cancel_with_bad_input_is_a_400_naming_the_parameter_and_changes_nothing(String query, String field) {
        String bizKey = unique("order");
        String topic = unique("bk-bad");
        String job = push(topic, bizKey, A_DAY_MS);
        assertRefused(
                cancel(query.replace("LONG129", "k".repeat(129))
                        .replace("KEY", bizKey)
                        .replace("TOPIC", topic)),
                field);
        assertThat(status(job)).isIn("WaitPut", "Delay");
        assertThat(client.lookup(job).data().path("stage").asText()).isEqualTo("DELAYED");
    }

    private static void assertRefused(Reply reply, String field) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().path("success").asBoolean(true))
                .as(reply.toString())
                .isFalse();
        assertThat(reply.json().path("code").asInt()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().path("field").asText()).as(reply.toString()).isEqualTo(field);
        assertThat(reply.json().path("message").asText()).as(reply.toString()).startsWith(field + ": ");
    }

    @Test
    void the_journal_has_the_biz_key_index_from_migration_5() throws Exception {
        try (Connection db = DriverManager.getConnection(
                TestServers.jdbcUrl(gateway.database()), TestServers.jdbcUser(), TestServers.jdbcPassword())) {
            List<String> columns = new ArrayList<>();
            try (PreparedStatement statement =
                    db.prepareStatement("SELECT column_name FROM information_schema.statistics"
                            + " WHERE table_schema = ? AND table_name = 'mykit_delay_queue_job'"
                            + " AND index_name = 'mykit_delay_queue_job_BIZKEY_TOPIC_ID' ORDER BY seq_in_index")) {
                statement.setString(1, gateway.database());
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        columns.add(rows.getString(1).toLowerCase());
                    }
                }
            }
            assertThat(columns).containsExactly("bizkey", "topic", "id");
            try (PreparedStatement statement =
                            db.prepareStatement("SELECT success FROM flyway_schema_history WHERE version = '5'");
                    ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).as("migration 5 applied").isTrue();
                assertThat(rows.getBoolean(1)).isTrue();
            }
        }
    }
}
