package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** Bad input gets a 4xx JSON error naming the field, and nothing is journaled. */
class BadInputTest {
    private static final String TOPIC =
            "bad-" + java.util.UUID.randomUUID().toString().substring(0, 8);

    @Gateway("mykit.delay.limits.max-body-bytes=1024")
    private static TestGateway gateway;

    static Stream<Arguments> badPushes() {
        String big = "x".repeat(1025);
        return Stream.of(
                Arguments.of("{\"topic\":\"" + TOPIC + "\",", 400, "request"),
                Arguments.of("not json", 400, "request"),
                Arguments.of("", 400, "request"),
                Arguments.of("{\"delay\":10}", 400, "topic"),
                Arguments.of("{\"topic\":\"  \"}", 400, "topic"),
                Arguments.of("{\"topic\":\"has space\"}", 400, "topic"),
                Arguments.of("{\"topic\":\"话题\"}", 400, "topic"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"delay\":-1}", 400, "delay"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"delay\":99999999999999}", 400, "delay"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"delay\":\"soon\"}", 400, "delay"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"delay\":1.5}", 400, "delay"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"delay\":1e400}", 400, "delay"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"delay\":null}", 400, "delay"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"priority\":-5}", 400, "priority"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"ttl\":-5}", 400, "ttl"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"tries\":\"many\"}", 400, "tries"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"body\":\"" + big + "\"}", 400, "body"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"body\":{\"a\":1}}", 400, "body"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"id\":\"a'; DROP TABLE x;--\"}", 400, "id"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"id\":\"" + "i".repeat(129) + "\"}", 400, "id"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"createTime\":-1}", 400, "createTime"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"subtopic\":\"a\\u0000b\"}", 400, "subtopic"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"dealy\":60000}", 400, "dealy"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"Delay\":60000}", 400, "Delay"),
                Arguments.of("{\"topic\":\"" + TOPIC + "\",\"delay\":1000,\"extra\":{\"a\":1}}", 400, "extra"),
                Arguments.of("[{\"topic\":\"" + TOPIC + "\"}]", 400, "request"));
    }

    @ParameterizedTest
    @MethodSource("badPushes")
    void bad_push_is_rejected_with_the_field_named_and_nothing_stored(String body, int status, String field) {
        Reply reply = gateway.client().push(body);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.json().path("success").asBoolean(true)).isFalse();
        assertThat(reply.json().path("code").asInt()).isEqualTo(status);
        assertThat(reply.json().path("field").asText()).isEqualTo(field);
        assertThat(reply.json().path("message").asText()).isNotBlank();
        assertThat(journaledRows()).isZero();
    }

    static Stream<Arguments> badCalls() {
        return Stream.of(
                Arguments.of("POST", "/push", "text/plain", "{\"topic\":\"" + TOPIC + "\"}", 415),
                Arguments.of("POST", "/push/batch", "application/json", "[]", 400),
                Arguments.of(
                        "POST",
                        "/push/batch",
                        "application/json",
                        "[{\"topic\":\"" + TOPIC + "\"},{\"topic\":\"" + TOPIC + "\",\"delay\":-1}]",
                        400),
                Arguments.of("GET", "/get/" + TOPIC + "?ttr=abc", null, null, 400),
                Arguments.of("GET", "/get/" + TOPIC + "?ttr=0", null, null, 400),
                Arguments.of("GET", "/get/" + TOPIC + "?timeout=-1", null, null, 400),
                Arguments.of("GET", "/finish", null, null, 400),
                Arguments.of("GET", "/delete?jobId=", null, null, 400),
                Arguments.of("GET", "/delete?jobId=unknown-job", null, null, 404),
                Arguments.of("GET", "/jobs/unknown-job", null, null, 404),
                Arguments.of("GET", "/push", null, null, 405));
    }

    @ParameterizedTest
    @MethodSource("badCalls")
    void bad_call_gets_a_json_4xx(String method, String path, String contentType, String body, int status) {
        Reply reply = gateway.client().raw(method, path, contentType, body);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.json().path("success").asBoolean(true)).isFalse();
        assertThat(journaledRows()).isZero();
    }

    @Test
    void a_misspelled_field_is_rejected_with_its_name_instead_of_being_ignored() {
        Reply reply = gateway.client().push("{\"topic\":\"" + TOPIC + "\",\"dealy\":60000}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().path("field").asText()).isEqualTo("dealy");
        assertThat(reply.json().path("message").asText())
                .as(reply.toString())
                .startsWith("dealy: unknown field")
                .contains("delay");
        assertThat(journaledRows()).isZero();
    }

    @Test
    void a_batch_with_an_unknown_field_in_its_third_job_names_that_job_and_stores_none() {
        String job = "{\"topic\":\"" + TOPIC + "\",\"delay\":60000}";
        Reply reply = gateway.client()
                .pushBatch("[" + job + "," + job + ",{\"topic\":\"" + TOPIC + "\",\"dealy\":60000}," + job + "]");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().path("success").asBoolean(true)).isFalse();
        assertThat(reply.json().path("field").asText()).isEqualTo("[2].dealy");
        assertThat(journaledRows()).isZero();
    }

    @Test
    void the_original_mykit_delay_fields_status_and_buckedName_are_accepted_and_ignored() {
        String topic = TOPIC + "-original";
        Reply reply =
                gateway.client().push("{\"topic\":\"" + topic + "\",\"status\":1,\"buckedName\":\"x\",\"delay\":1000}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        Reply lookup = gateway.client().lookup(reply.data().asText());
        assertThat(lookup.status()).as(lookup.toString()).isEqualTo(200);
        assertThat(lookup.data().path("topic").asText()).isEqualTo(topic);
        assertThat(lookup.data().path("delay").asLong()).isEqualTo(1000);
    }

    @Test
    void an_unknown_field_in_a_dead_letter_id_list_is_rejected_instead_of_meaning_every_dead_job() {
        Reply reply =
                gateway.client().raw("POST", "/dead/" + TOPIC + "/respawn", "application/json", "{\"idz\":[\"a\"]}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().path("field").asText()).isEqualTo("idz");
        Reply drop = gateway.client().raw("DELETE", "/dead/" + TOPIC, "application/json", "{\"ids\":[],\"all\":true}");
        assertThat(drop.status()).as(drop.toString()).isEqualTo(400);
        assertThat(drop.json().path("field").asText()).isEqualTo("all");
    }

    private static long journaledRows() {
        JdbcTemplate jdbc = new JdbcTemplate(gateway.bean(DataSource.class));
        Long rows =
                jdbc.queryForObject("SELECT COUNT(*) FROM mykit_delay_queue_job WHERE topic = ?", Long.class, TOPIC);
        return rows == null ? 0 : rows;
    }
}
