package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.PrefixedRedis;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each tenant with a token chooses its ids in a namespace of its own: an id another tenant holds is no obstacle and no
 * clue, each sees and acts on its own job of that id only, and the admin sees both under their stored ids
 * {@code <tenant>~<id>}.
 */
class TenantIdsTest {
    private static final String ADMIN = "adm-ids-token";
    private static final String ORDERS = "orders-ids-token";
    private static final String MAIL = "mail-ids-token";

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    private static TestGateway gateway;
    private static PrefixedRedis redis;
    private static TenantHttp http;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(
                "mykit.delay.admin.token=" + ADMIN,
                "mykit.delay.tenants.orders.tokens=" + ORDERS,
                "mykit.delay.tenants.orders.topics=order-*",
                "mykit.delay.tenants.mail.token=" + MAIL,
                "mykit.delay.tenants.mail.topics=mail-*");
        redis = PrefixedRedis.connect();
        http = new TenantHttp(gateway.baseUrl());
    }

    @AfterAll
    static void stop() {
        redis.deleteKeys(gateway.keyPrefix());
        redis.close();
        gateway.close();
    }

    private static Answer push(String token, String id, String topic, long delayMs) {
        return http.call(
                token,
                "POST",
                "/push",
                "{\"id\":\"" + id + "\",\"topic\":\"" + topic + "\",\"delay\":" + delayMs + ",\"body\":\"" + token
                        + "\"}");
    }

    @Test
    void two_tenants_push_pull_and_finish_the_same_id_each_its_own_job() {
        String id = "same-" + RUN;
        String orderTopic = "order-pull-" + RUN;
        String mailTopic = "mail-pull-" + RUN;
        Answer orders = push(ORDERS, id, orderTopic, 0);
        assertThat(orders.status()).as(orders.toString()).isEqualTo(200);
        Answer mail = push(MAIL, id, mailTopic, 0);
        assertThat(mail.status()).as(mail.toString()).isEqualTo(200);
        assertThat(mail.data().asText()).isEqualTo(id);
        assertThat(mail.json().path("duplicate").asBoolean()).isFalse();

        Answer mailGot = http.call(MAIL, "GET", "/get/" + mailTopic + "?ttr=60000&timeout=10000", null);
        assertThat(mailGot.data().path("id").asText()).as(mailGot.toString()).isEqualTo(id);
        assertThat(mailGot.data().path("body").asText()).isEqualTo(MAIL);
        Answer ordersGot = http.call(ORDERS, "GET", "/get/" + orderTopic + "/batch?count=5&timeout=10000", null);
        assertThat(ordersGot.data().toString()).as(ordersGot.toString()).contains("\"id\":\"" + id + "\"");
        assertThat(ordersGot.data().get(0).path("body").asText()).isEqualTo(ORDERS);

        Answer mailFinish = http.call(MAIL, "GET", "/finish?jobId=" + id, null);
        assertThat(mailFinish.toString()).isEqualTo("200 " + okBody(id));
        // the orders tenant's job of that id is still reserved, untouched by the other's finish
        assertThat(http.call(ORDERS, "GET", "/jobs/" + id, null)
                        .data()
                        .path("stage")
                        .asText())
                .isEqualTo("IN_FLIGHT");
        Answer ordersFinish = http.call(ORDERS, "POST", "/finish/batch", "[\"" + id + "\"]");
        assertThat(ordersFinish.data().path("finished").toString())
                .as(ordersFinish.toString())
                .isEqualTo("[\"" + id + "\"]");

        // the admin sees both jobs under their stored ids
        JsonNode ordersView =
                http.call(ADMIN, "GET", "/jobs/orders~" + id, null).data();
        JsonNode mailView = http.call(ADMIN, "GET", "/jobs/mail~" + id, null).data();
        assertThat(ordersView.path("topic").asText()).isEqualTo(orderTopic);
        assertThat(mailView.path("topic").asText()).isEqualTo(mailTopic);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> List.of(statusOf("orders~" + id), statusOf("mail~" + id))
                        .equals(List.of("Finish", "Finish")));
    }

    private static String statusOf(String storedId) {
        return http.call(ADMIN, "GET", "/jobs/" + storedId, null)
                .data()
                .path("status")
                .asText();
    }

    @Test
    void a_batch_with_ids_another_tenant_holds_is_stored_whole() {
        String taken = "taken-" + RUN;
        assertThat(push(ORDERS, taken, "order-" + RUN, 3_600_000).status()).isEqualTo(200);
        Answer batch = http.call(
                MAIL,
                "POST",
                "/push/batch",
                "[{\"topic\":\"mail-" + RUN + "\",\"delay\":3600000},{\"id\":\"" + taken + "\",\"topic\":\"mail-" + RUN
                        + "\",\"delay\":3600000}]");
        assertThat(batch.status()).as(batch.toString()).isEqualTo(200);
        assertThat(batch.data().get(1).asText()).isEqualTo(taken);
        assertThat(batch.data().get(0).asText()).doesNotContain("~");
        // the generated id is the tenant's too: its own look-up finds it
        assertThat(http.call(MAIL, "GET", "/jobs/" + batch.data().get(0).asText(), null)
                        .status())
                .isEqualTo(200);
        assertThat(http.call(MAIL, "GET", "/jobs/" + taken, null)
                        .data()
                        .path("topic")
                        .asText())
                .isEqualTo("mail-" + RUN);
        assertThat(http.call(ORDERS, "GET", "/jobs/" + taken, null)
                        .data()
                        .path("topic")
                        .asText())
                .isEqualTo("order-" + RUN);
    }

    @Test
    void a_tenants_id_routes_on_an_id_both_hold_touch_its_own_job_only() throws Exception {
        String id = "both-" + RUN;
        assertThat(push(ORDERS, id, "order-w-" + RUN, 3_600_000).status()).isEqualTo(200);
        assertThat(push(MAIL, id, "mail-w-" + RUN, 3_600_000).status()).isEqualTo(200);
        Map<String, String> before = JobTrace.ofJobAlone(gateway, redis.client(), "orders~" + id);
        Answer rescheduled = http.call(MAIL, "PUT", "/jobs/" + id, "{\"delay\":7200000,\"body\":\"changed\"}");
        assertThat(rescheduled.data().path("id").asText())
                .as(rescheduled.toString())
                .isEqualTo(id);
        Answer cancelled = http.call(MAIL, "DELETE", "/jobs/" + id, null);
        assertThat(cancelled.toString()).isEqualTo("200 " + okBody(id));
        Answer listed = http.call(MAIL, "GET", "/jobs?bizKey=none&topic=mail-w-" + RUN, null);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(JobTrace.ofJobAlone(gateway, redis.client(), "orders~" + id)).isEqualTo(before);
        assertThat(http.call(ORDERS, "GET", "/jobs/" + id, null)
                        .data()
                        .path("body")
                        .asText())
                .isEqualTo(ORDERS);
        assertThat(http.call(MAIL, "GET", "/jobs/" + id, null)
                        .data()
                        .path("status")
                        .asText())
                .isEqualTo("Delete");
    }

    @Test
    void bizkey_pages_and_dead_letters_show_a_tenant_its_own_ids() {
        String bizKey = "bk-" + RUN;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = "page-" + i + "-" + RUN;
            ids.add(id);
            Answer pushed = http.call(
                    MAIL,
                    "POST",
                    "/push",
                    "{\"id\":\"" + id + "\",\"topic\":\"mail-bk-" + RUN + "\",\"bizKey\":\"" + bizKey
                            + "\",\"delay\":3600000}");
            assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        }
        Answer first = http.call(MAIL, "GET", "/jobs?bizKey=" + bizKey + "&limit=2", null);
        assertThat(idsOf(first.data())).as(first.toString()).isEqualTo(ids.subList(0, 2));
        Answer next = http.call(MAIL, "GET", "/jobs?bizKey=" + bizKey + "&limit=2&after=" + ids.get(1), null);
        assertThat(idsOf(next.data())).as(next.toString()).isEqualTo(ids.subList(2, 3));
        Answer inTopic = http.call(
                MAIL, "GET", "/jobs?bizKey=" + bizKey + "&topic=mail-bk-" + RUN + "&after=" + ids.get(0), null);
        assertThat(idsOf(inTopic.data())).as(inTopic.toString()).isEqualTo(ids.subList(1, 3));
        Answer cancelled = http.call(MAIL, "DELETE", "/jobs?bizKey=" + bizKey + "&topic=mail-bk-" + RUN, null);
        assertThat(cancelled.data().path("cancelled").toString())
                .as(cancelled.toString())
                .doesNotContain("~");
        assertThat(cancelled.data().path("cancelled")).hasSize(3);
    }

    @Test
    void the_admins_push_into_a_tenants_topic_and_a_job_stored_outside_namespaces_are_the_tenants_by_plain_id() {
        String topic = "order-adm-" + RUN;
        Answer pushed = push(ADMIN, "adm-" + RUN, topic, 0);
        assertThat(pushed.data().asText()).as(pushed.toString()).isEqualTo("orders~adm-" + RUN);
        // as a job pushed before tenants had namespaces was stored
        gateway.bean(DelayQueueService.class)
                .pushReporting(List.of(new Job("old-" + RUN, topic, null, null, 0, 0, 0, 0, "b", 0)));
        Set<String> pulled = new TreeSet<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            http.call(ORDERS, "GET", "/get/" + topic + "/batch?count=5&timeout=1000", null)
                    .data()
                    .forEach(job -> pulled.add(job.path("id").asText()));
            return pulled.size() >= 2;
        });
        assertThat(pulled).containsExactlyInAnyOrder("adm-" + RUN, "old-" + RUN);
        Answer mailView = http.call(MAIL, "GET", "/jobs/old-" + RUN, null);
        Answer unknown = http.call(MAIL, "GET", "/jobs/nobody-" + RUN, null);
        assertThat(mailView.status()).isEqualTo(unknown.status()).isEqualTo(404);
        assertThat(mailView.body()).isEqualTo(unknown.body().replace("nobody-", "old-"));
        Answer finished = http.call(ORDERS, "POST", "/finish/batch", "[\"adm-" + RUN + "\",\"old-" + RUN + "\"]");
        assertThat(finished.data().path("finished")).as(finished.toString()).hasSize(2);
    }

    @Test
    void dead_letters_of_an_id_both_hold_are_listed_and_respawned_each_by_its_own_tenant() {
        String id = "dead-" + RUN;
        bury(ORDERS, id, "order-dl-" + RUN);
        bury(MAIL, id, "mail-dl-" + RUN);
        assertThat(idsOf(http.call(MAIL, "GET", "/dead/mail-dl-" + RUN, null).data()))
                .containsExactly(id);
        assertThat(idsOf(http.call(ADMIN, "GET", "/dead/mail-dl-" + RUN, null).data()))
                .containsExactly("mail~" + id);
        Answer respawned = http.call(MAIL, "POST", "/dead/mail-dl-" + RUN + "/respawn", "{\"ids\":[\"" + id + "\"]}");
        assertThat(respawned.data().path("respawned").asInt())
                .as(respawned.toString())
                .isEqualTo(1);
        assertThat(idsOf(http.call(MAIL, "GET", "/dead/mail-dl-" + RUN, null).data()))
                .isEmpty();
        assertThat(idsOf(http.call(ORDERS, "GET", "/dead/order-dl-" + RUN, null).data()))
                .containsExactly(id);
    }

    /** Pushes a job with one try, reserves it and releases it: out of tries, it is dead. */
    private static void bury(String token, String id, String topic) {
        Answer pushed = http.call(
                token, "POST", "/push", "{\"id\":\"" + id + "\",\"topic\":\"" + topic + "\",\"delay\":0,\"tries\":1}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        Answer got = http.call(token, "GET", "/get/" + topic + "?ttr=60000&timeout=10000", null);
        assertThat(got.data().path("id").asText()).as(got.toString()).isEqualTo(id);
        Answer released = http.call(token, "POST", "/release?jobId=" + id, null);
        assertThat(released.data().path("dead").asBoolean())
                .as(released.toString())
                .isTrue();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> idsOf(
                                http.call(token, "GET", "/dead/" + topic, null).data())
                        .contains(id));
    }

    @Test
    void a_tenants_ids_leave_room_for_its_namespace_in_the_journals_128_characters() {
        String longest = RUN + "x".repeat(128 - "orders~".length() - RUN.length());
        Answer stored = push(ORDERS, longest, "order-long-" + RUN, 3_600_000);
        assertThat(stored.data().asText()).as(stored.toString()).isEqualTo(longest);
        assertThat(http.call(ADMIN, "GET", "/jobs/orders~" + longest, null).status())
                .isEqualTo(200);
        Answer refused = push(ORDERS, longest + "x", "order-long-" + RUN, 3_600_000);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().path("message").asText())
                .isEqualTo("id: must be 1-121 characters of A-Z a-z 0-9 _ . : -");
        // named by a tenant, an id too long to be its own is an unknown one
        Answer unknown = http.call(ORDERS, "GET", "/jobs/" + longest + "x", null);
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(404);
    }

    private static List<String> idsOf(JsonNode jobs) {
        List<String> ids = new ArrayList<>();
        jobs.forEach(job -> ids.add(job.path("id").asText()));
        return ids;
    }

    private static String okBody(String id) {
        return "{\"success\":true,\"code\":200,\"message\":\"ok\",\"data\":\"" + id + "\"}";
    }
}
