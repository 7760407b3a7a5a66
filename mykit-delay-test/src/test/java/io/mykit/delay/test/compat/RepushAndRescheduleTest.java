package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The original rescheduled a job pushed again with its id; this gateway keeps the first push (idempotent retries) and
 * says so in the answer, and reschedules only when asked: PUT /jobs/{id} replaces a waiting job's delay and body in
 * Redis and in the journal, so a restore brings back the new schedule.
 */
class RepushAndRescheduleTest {

    @Test
    void a_repeated_id_is_answered_as_a_duplicate_and_keeps_the_first_job(@Gateway TestGateway gateway) {
        GatewayClient client = gateway.client();
        String id = "repush-" + UUID.randomUUID();
        GatewayClient.Reply first = client.push(job(id, "repush", 60_000, "first"));
        assertThat(first.json().has("duplicate")).as("first push: %s", first).isFalse();
        GatewayClient.Reply again = client.push(job(id, "repush", 1_000, "second"));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("duplicate").asBoolean())
                .as("second push: %s", again)
                .isTrue();
        assertThat(again.data().asText()).isEqualTo(id);
        assertThat(client.lookup(id).data().path("body").asText()).isEqualTo("first");

        String fresh = "repush-" + UUID.randomUUID();
        GatewayClient.Reply batch = client.pushBatch(
                "[" + job(id, "repush", 1_000, "third") + "," + job(fresh, "repush", 60_000, "new") + "]");
        assertThat(batch.status()).isEqualTo(200);
        assertThat(batch.json().path("duplicates")).as("batch: %s", batch).hasSize(1);
        assertThat(batch.json().path("duplicates").get(0).asText()).isEqualTo(id);
        assertThat(client.lookup(fresh).data().path("body").asText()).isEqualTo("new");
    }

    @Test
    void put_reschedules_a_waiting_job_in_redis_and_the_journal_and_refuses_one_already_handed_over(
            @Gateway TestGateway gateway) throws Exception {
        GatewayClient client = gateway.client();
        String topic = "resched-" + UUID.randomUUID().toString().substring(0, 6);
        String id = client.push(job(null, topic, 3_600_000, "old body")).data().asText();

        long asked = System.currentTimeMillis();
        GatewayClient.Reply moved =
                client.raw("PUT", "/jobs/" + id, "application/json", "{\"delay\":1500,\"body\":\"new body\"}");
        assertThat(moved.status()).as("reschedule: %s", moved).isEqualTo(200);
        long due = moved.data().path("dueTime").asLong();
        assertThat(due).isBetween(asked + 1_500, System.currentTimeMillis() + 1_500);

        GatewayClient.Reply pulled = client.get(topic, 30_000, 30_000);
        long arrived = System.currentTimeMillis();
        JsonNode delivered = pulled.data();
        assertThat(delivered.path("id").asText()).as("pull: %s", pulled).isEqualTo(id);
        assertThat(delivered.path("body").asText()).isEqualTo("new body");
        assertThat(arrived).as("not before the new due time").isGreaterThanOrEqualTo(due);

        // reserved now: it may be delivered, so no reschedule any more
        assertThat(client.raw("PUT", "/jobs/" + id, "application/json", "{\"delay\":60000}")
                        .status())
                .isEqualTo(409);
        assertThat(client.raw("PUT", "/jobs/no-such-job", "application/json", "{\"delay\":1000}")
                        .status())
                .isEqualTo(404);
        String other = client.push(job(null, topic, 3_600_000, "x")).data().asText();
        assertThat(client.raw("PUT", "/jobs/" + other, "application/json", "{\"body\":\"no delay\"}")
                        .status())
                .isEqualTo(400);
        assertThat(client.raw("PUT", "/jobs/" + other, "application/json", "{\"delay\":-5}")
                        .status())
                .isEqualTo(400);
        assertThat(client.lookup(other).data().path("body").asText())
                .as("a refused change changes nothing")
                .isEqualTo("x");
    }

    @Test
    void a_restore_after_a_reschedule_brings_back_the_new_schedule(@Gateway TestGateway gateway) throws Exception {
        GatewayClient client = gateway.client();
        String topic = "resched-restore-" + UUID.randomUUID().toString().substring(0, 6);
        String id = client.push(job(null, topic, 3_600_000, "old")).data().asText();
        assertThat(client.raw("PUT", "/jobs/" + id, "application/json", "{\"delay\":2000,\"body\":\"new\"}")
                        .status())
                .isEqualTo(200);
        // Redis loses everything; the journal alone decides what comes back, and when
        assertThat(client.get("/clearAll").status()).isEqualTo(200);
        assertThat(client.get("/reStore?expire=true").status()).isEqualTo(200);
        GatewayClient.Reply pulled = client.get(topic, 30_000, 30_000);
        assertThat(pulled.data().path("id").asText())
                .as("pull after restore: %s", pulled)
                .isEqualTo(id);
        assertThat(pulled.data().path("body").asText()).isEqualTo("new");
        assertThat(gateway.journalStatuses(id)).contains(1);
    }

    private static String job(String id, String topic, long delay, String body) {
        return "{" + (id == null ? "" : "\"id\":\"" + id + "\",") + "\"topic\":\"" + topic + "\",\"delay\":" + delay
                + ",\"body\":\"" + body + "\"}";
    }
}
