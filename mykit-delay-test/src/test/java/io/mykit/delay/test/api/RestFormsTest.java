package io.mykit.delay.test.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.test.gateway.AdminCanaries;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each REST form of a state change does what its legacy GET twin does, answer and effect alike. */
class RestFormsTest {
    private static final long A_DAY_MS = 86_400_000L;

    @Gateway("mykit.delay.pull.poll-interval=50ms")
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String topic() {
        return "rf-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String push(String topic, long delay) {
        Reply pushed = client.push("{\"topic\":\"" + topic + "\",\"delay\":" + delay + "}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        return pushed.data().asText();
    }

    /** Pushes a job due now and reserves it, as a puller would before finishing it. */
    private static String pulled() {
        String topic = topic();
        String id = push(topic, 0);
        Reply reserved = client.get(topic, 30_000, 30_000);
        assertThat(reserved.data().path("id").asText()).as(reserved.toString()).isEqualTo(id);
        return id;
    }

    private static Reply call(String method, String path) {
        return client.raw(method, path, null, null);
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void post_finish_acknowledges_a_pulled_job_as_get_finish_does() throws Exception {
        String viaRest = pulled();
        String viaLegacy = pulled();
        Reply rest = call("POST", "/jobs/" + viaRest + "/finish");
        Reply legacy = client.finish(viaLegacy);
        assertThat(rest.status()).as(rest.toString()).isEqualTo(200);
        assertThat(legacy.status()).as(legacy.toString()).isEqualTo(200);
        assertThat(rest.data().asText()).isEqualTo(viaRest);
        for (String id : List.of(viaRest, viaLegacy)) {
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(
                                    client.lookup(id).data().path("status").asText())
                            .isEqualTo("Finish"));
            // journaled WaitPut first and Finish last, whichever form acknowledged it
            assertThat(gateway.journalStatuses(id)).startsWith(0).endsWith(3);
        }
        assertThat(call("POST", "/jobs/" + viaRest + "/finish").status())
                .as("finishing again")
                .isEqualTo(200);
    }

    @Test
    void post_finish_refuses_what_get_finish_refuses() {
        String notDue = push(topic(), A_DAY_MS);
        Reply rest = call("POST", "/jobs/" + notDue + "/finish");
        Reply legacy = client.finish(notDue);
        assertThat(rest.status()).as(rest.toString()).isEqualTo(409);
        assertThat(rest.json()).isEqualTo(legacy.json());
        Reply unknown = call("POST", "/jobs/no-such-job-" + UUID.randomUUID() + "/finish");
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(404);
        Reply bad = call("POST", "/jobs/a%20b/finish");
        assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
        assertThat(bad.json().path("success").asBoolean(true)).isFalse();
        assertThat(bad.json().path("field").asText()).isEqualTo("id");
    }

    @Test
    void delete_cancels_a_pending_job_as_get_delete_does() throws Exception {
        String topic = topic();
        String viaRest = push(topic, A_DAY_MS);
        String viaLegacy = push(topic, A_DAY_MS);
        Reply rest = call("DELETE", "/jobs/" + viaRest);
        Reply legacy = client.delete(viaLegacy);
        assertThat(rest.status()).as(rest.toString()).isEqualTo(200);
        assertThat(legacy.status()).as(legacy.toString()).isEqualTo(200);
        assertThat(rest.data().asText()).isEqualTo(viaRest);
        for (String id : List.of(viaRest, viaLegacy)) {
            Reply lookup = client.lookup(id);
            assertThat(lookup.data().path("status").asText()).isEqualTo("Delete");
            assertThat(lookup.data().path("stage").isNull())
                    .as("gone from Redis")
                    .isTrue();
            assertThat(gateway.journalStatuses(id)).startsWith(0).contains(4);
        }
        Reply again = call("DELETE", "/jobs/" + viaRest);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().path("message").asText())
                .isEqualTo(client.delete(viaRest).json().path("message").asText());
    }

    @Test
    void post_admin_clear_does_what_get_clear_all_does() throws Exception {
        assertSameEffect("POST", "/admin/clear", "GET", "/clearAll", c -> "");
    }

    @Test
    void post_admin_restore_does_what_get_re_store_does() throws Exception {
        assertSameEffect("POST", "/admin/restore?expire=true", "GET", "/reStore?expire=true", c -> "");
        assertSameEffect("POST", "/admin/restore", "GET", "/reStore", c -> "");
    }

    @Test
    void post_admin_restore_of_one_job_does_what_get_re_store_job_does() throws Exception {
        assertSameEffect("POST", "/admin/restore/", "GET", "/reStoreJob?jobId=", AdminCanaries::lost);
    }

    /**
     * Seeds canaries (a job in Redis, one Redis lost, a dead one) for each form, calls it, and compares what changed
     * and the answer's shape; {@code suffix} ends the target with the canary a call names.
     */
    private static void assertSameEffect(
            String restMethod,
            String restTarget,
            String legacyMethod,
            String legacyTarget,
            Function<AdminCanaries, String> suffix)
            throws Exception {
        List<List<String>> changes = new ArrayList<>();
        List<Set<String>> shapes = new ArrayList<>();
        for (String[] form :
                List.of(new String[] {restMethod, restTarget}, new String[] {legacyMethod, legacyTarget})) {
            AdminCanaries canaries = AdminCanaries.seed(gateway, topic());
            Reply reply = call(form[0], form[1] + suffix.apply(canaries));
            assertThat(reply.status())
                    .as(form[0] + " " + form[1] + " -> " + reply)
                    .isEqualTo(200);
            shapes.add(fieldNames(reply.data()));
            changes.add(canaries.changes().stream()
                    .map(change -> change.replace(canaries.stored(), "<stored>")
                            .replace(canaries.lost(), "<lost>")
                            .replace(canaries.dead(), "<dead>")
                            .replaceAll("restore status .*", "restore status changed"))
                    .toList());
        }
        assertThat(changes.get(0))
                .as("what " + restMethod + " " + restTarget + " changed")
                .isNotEmpty()
                .isEqualTo(changes.get(1));
        assertThat(shapes.get(0)).isEqualTo(shapes.get(1));
    }
}
