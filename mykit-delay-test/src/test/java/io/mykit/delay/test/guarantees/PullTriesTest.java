package io.mykit.delay.test.guarantees;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A pulled job that is never finished does not go round forever: each reservation is a try, and after its tries (or its
 * ttl) it is dead, journaled and listed. Pullers can give a job back (release) or keep it longer (touch).
 */
class PullTriesTest {
    @Gateway("mykit.delay.timer.sweep-interval=100ms")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    @Test
    void a_job_whose_reservations_expire_tries_times_is_dead_and_listed() throws Exception {
        String topic = topic();
        String id = push(topic, ",\"tries\":2");
        JsonNode first = reserve(topic, 200);
        assertThat(first.path("id").asText()).isEqualTo(id);
        assertThat(first.path("attempts").asInt()).as("earlier reservations").isZero();
        JsonNode second = reserve(topic, 200);
        assertThat(second.path("id").asText())
                .as("delivered again after the first ttr")
                .isEqualTo(id);
        assertThat(second.path("attempts").asInt()).isEqualTo(1);

        awaitStatus(id, JobStatus.Dead);
        assertThat(client.get(topic, 200, 1_000).data().isNull())
                .as("a third reservation")
                .isTrue();
        Reply dead = client.get("/dead/" + topic);
        assertThat(dead.data().findValuesAsText("id")).containsExactly(id);
        assertThat(client.lookup(id).data().path("stage").isNull())
                .as("dead job left Redis")
                .isTrue();
    }

    @Test
    void a_job_past_its_ttl_is_dead_when_its_reservation_expires_even_with_tries_left() throws Exception {
        String topic = topic();
        String id = push(topic, ",\"tries\":10,\"ttl\":300");
        assertThat(reserve(topic, 500).path("id").asText()).isEqualTo(id);
        awaitStatus(id, JobStatus.Dead);
        assertThat(client.get(topic, 200, 500).data().isNull()).isTrue();
    }

    @Test
    void release_gives_a_job_back_now_or_later_and_counts_a_try() throws Exception {
        String topic = topic();
        String id = push(topic, ",\"tries\":2");
        assertThat(reserve(topic, 30_000).path("id").asText()).isEqualTo(id);
        Reply released = client.raw("POST", "/release?jobId=" + id + "&delay=0", null, null);
        assertThat(released.status()).as(released.toString()).isEqualTo(200);
        assertThat(released.data().path("dead").asBoolean(true)).isFalse();
        JsonNode again = reserve(topic, 30_000);
        assertThat(again.path("id").asText()).isEqualTo(id);
        assertThat(again.path("attempts").asInt()).isEqualTo(1);

        Reply last = client.raw("POST", "/release?jobId=" + id + "&delay=0", null, null);
        assertThat(last.data().path("dead").asBoolean(false))
                .as("second release of a job with 2 tries: " + last)
                .isTrue();
        awaitStatus(id, JobStatus.Dead);

        String later = push(topic, "");
        assertThat(reserve(topic, 30_000).path("id").asText()).isEqualTo(later);
        long releasedAt = System.currentTimeMillis();
        assertThat(client.raw("POST", "/release?jobId=" + later + "&delay=1500", null, null)
                        .status())
                .isEqualTo(200);
        assertThat(reserve(topic, 30_000).path("id").asText()).isEqualTo(later);
        assertThat(System.currentTimeMillis() - releasedAt)
                .as("due again after the release's delay")
                .isGreaterThanOrEqualTo(1_400);
        assertThat(gateway.journalStatuses(later))
                .as("journal of a released job")
                .contains(JobStatus.ConsumerFailRestore.code());

        assertThat(client.raw("POST", "/release?jobId=" + later + "&delay=-1", null, null)
                        .status())
                .isEqualTo(400);
        assertThat(client.raw("POST", "/release?jobId=no-such-job", null, null).status())
                .isEqualTo(404);
        String waiting = push(topic, ",\"delay\":3600000");
        assertThat(client.raw("POST", "/release?jobId=" + waiting, null, null).status())
                .as("not reserved")
                .isEqualTo(409);
    }

    @Test
    void touch_keeps_a_reservation_beyond_its_first_ttr() throws Exception {
        String topic = topic();
        String id = push(topic, "");
        assertThat(reserve(topic, 500).path("id").asText()).isEqualTo(id);
        Reply touched = client.raw("POST", "/touch?jobId=" + id + "&ttr=5000", null, null);
        assertThat(touched.status()).as(touched.toString()).isEqualTo(200);
        assertThat(client.get(topic, 30_000, 1_500).data().isNull())
                .as("redelivered within the extended ttr")
                .isTrue();
        assertThat(client.finish(id).status()).isEqualTo(200);

        assertThat(client.raw("POST", "/touch?jobId=" + id + "&ttr=5000", null, null)
                        .status())
                .as("finished")
                .isEqualTo(409);
        assertThat(client.raw("POST", "/touch?jobId=no-such-job&ttr=5000", null, null)
                        .status())
                .isEqualTo(404);
        assertThat(client.raw("POST", "/touch?jobId=" + id + "&ttr=0", null, null)
                        .status())
                .isEqualTo(400);
    }

    private static String topic() {
        return PullPath.topic("tries");
    }

    private static String push(String topic, String extraFields) {
        String fields = extraFields.contains("\"delay\"") ? extraFields : ",\"delay\":0" + extraFields;
        return PullPath.push(client, topic, fields);
    }

    private static JsonNode reserve(String topic, long ttrMs) {
        return PullPath.reserve(client, topic, ttrMs);
    }

    private static void awaitStatus(String id, JobStatus status) {
        PullPath.awaitStatus(client, id, status);
    }
}
