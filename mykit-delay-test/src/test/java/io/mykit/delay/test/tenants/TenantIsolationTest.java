package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.PrefixedRedis;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two tenants and the admin on one gateway: a job of one tenant's topic cannot be seen, changed or delivered with the
 * other's token by any data-plane route, direct or through Spring MVC; its journal rows and Redis keys stay as they
 * were.
 */
class TenantIsolationTest {
    static final String ADMIN = "adm-token";
    static final String ORDERS = "orders-token";
    static final String MAIL = "mail-token";

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String ORDER_TOPIC = "order-" + RUN;
    private static final String ORDER_PULL = "order-pull-" + RUN;
    private static final String BIZ_KEY = "bk-" + RUN;

    private static TestGateway gateway;
    private static PrefixedRedis redis;
    private static TenantHttp http;
    /** A waiting job and a reserved one, both the orders tenant's. */
    private static String waiting;

    private static String reserved;

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
        waiting = http.push(ORDERS, ORDER_TOPIC, BIZ_KEY, 3_600_000);
        String pulled = http.push(ORDERS, ORDER_PULL, BIZ_KEY, 0);
        Answer got = http.call(ORDERS, "GET", "/get/" + ORDER_PULL + "?ttr=600000&timeout=10000", null);
        assertThat(got.data().path("id").asText()).as(got.toString()).isEqualTo(pulled);
        reserved = pulled;
    }

    @AfterAll
    static void stop() {
        redis.deleteKeys(gateway.keyPrefix());
        redis.close();
        gateway.close();
    }

    /** Every route that names a job by id, with {@code ID} standing for it. */
    private static final List<String[]> ID_ROUTES = List.of(
            new String[] {"GET", "/jobs/ID", null},
            new String[] {"GET", "/delete?jobId=ID", null},
            new String[] {"DELETE", "/jobs/ID", null},
            new String[] {"POST", "/jobs/ID/finish", null},
            new String[] {"GET", "/finish?jobId=ID", null},
            new String[] {"GET", "/finish?jobId=ID&spelling=mvc", null},
            new String[] {"POST", "/release?jobId=ID", null},
            new String[] {"POST", "/release?jobId=ID&delay=0", null},
            new String[] {"POST", "/touch?jobId=ID&ttr=60000", null},
            new String[] {"PUT", "/jobs/ID", "{\"delay\":1000,\"body\":\"pay 10000 to mallory\"}"},
            new String[] {"POST", "/finish/batch", "[\"ID\"]"},
            new String[] {"POST", "/finish/batch?spelling=mvc", "[\"ID\"]"});

    /** Every route that names a topic of the orders tenant, with what a stranger to it gets. */
    private static final List<String[]> TOPIC_ROUTES = List.of(
            new String[] {"GET", "/get/" + ORDER_PULL + "?ttr=1000&timeout=0", null},
            new String[] {"GET", "/get/" + ORDER_PULL + "?timeout=0&spelling=mvc", null},
            new String[] {"GET", "/get/" + ORDER_PULL + "/batch?count=5&timeout=0", null},
            new String[] {"GET", "/get/" + ORDER_PULL + "/batch?count=5&timeout=0&spelling=mvc", null},
            new String[] {"GET", "/dead/" + ORDER_TOPIC, null},
            new String[] {"GET", "/jobs?bizKey=" + BIZ_KEY + "&topic=" + ORDER_TOPIC, null},
            new String[] {"DELETE", "/jobs?bizKey=" + BIZ_KEY + "&topic=" + ORDER_TOPIC, null},
            new String[] {
                "POST", "/push", "{\"topic\":\"" + ORDER_TOPIC + "\",\"delay\":0,\"bizKey\":\"x-" + RUN + "\"}"
            },
            new String[] {
                "POST",
                "/push?spelling=mvc",
                "{\"topic\":\"" + ORDER_TOPIC + "\",\"delay\":0,\"bizKey\":\"x-" + RUN + "\"}"
            },
            new String[] {
                "POST",
                "/push/batch",
                "[{\"topic\":\"mail-" + RUN + "\",\"delay\":0,\"bizKey\":\"x-" + RUN + "\"},{\"topic\":\"" + ORDER_TOPIC
                        + "\",\"delay\":0,\"bizKey\":\"x-" + RUN + "\"}]"
            });

    private static Answer call(String token, String[] route, String id) {
        return http.call(
                token, route[0], route[1].replace("ID", id), route[2] == null ? null : route[2].replace("ID", id));
    }

    @Test
    void another_tenants_job_answers_exactly_as_an_unknown_id_and_stays_as_it_was() throws Exception {
        for (String id : List.of(waiting, reserved)) {
            Map<String, String> before = JobTrace.of(gateway, redis.client(), "orders~" + id);
            String unknown = "000000000000"
                    + UUID.randomUUID().toString().replace("-", "").substring(0, 18);
            for (String[] route : ID_ROUTES) {
                Answer foreign = call(MAIL, route, id);
                Answer none = call(MAIL, route, unknown);
                assertThat(foreign.status()).as(route[0] + " " + route[1]).isEqualTo(none.status());
                assertThat(foreign.body())
                        .as(route[0] + " " + route[1])
                        .isEqualTo(none.body().replace(unknown, id));
                assertThat(foreign.status()).as(route[1] + ": " + foreign).isIn(200, 404);
            }
            assertThat(JobTrace.of(gateway, redis.client(), "orders~" + id))
                    .as("job " + id)
                    .isEqualTo(before);
        }
        // the owner still sees both as they were
        Answer own = http.call(ORDERS, "GET", "/jobs/" + waiting, null);
        assertThat(own.data().path("body").asText()).as(own.toString()).isEqualTo("b");
        // the admin names jobs by their stored ids
        assertThat(http.call(ADMIN, "GET", "/jobs/orders~" + reserved, null).status())
                .isEqualTo(200);
    }

    @Test
    void another_tenants_topics_are_refused_with_403_and_nothing_is_stored() throws Exception {
        Map<String, String> before = JobTrace.of(gateway, redis.client(), "orders~" + waiting);
        for (String[] route : TOPIC_ROUTES) {
            Answer answer = call(MAIL, route, "");
            assertThat(answer.status())
                    .as(route[0] + " " + route[1] + ": " + answer)
                    .isEqualTo(403);
            assertThat(answer.json().path("success").asBoolean(true)).isFalse();
        }
        assertThat(JobTrace.of(gateway, redis.client(), "orders~" + waiting)).isEqualTo(before);
        // none of the refused pushes was stored, the batch's own-topic job neither
        Answer stored = http.call(ADMIN, "GET", "/jobs?bizKey=x-" + RUN, null);
        assertThat(stored.data()).as(stored.toString()).isEmpty();
        // a bizKey look-up without a topic shows only the caller's own jobs
        Answer mine = http.call(MAIL, "GET", "/jobs?bizKey=" + BIZ_KEY, null);
        assertThat(mine.status()).isEqualTo(200);
        assertThat(mine.data()).isEmpty();
        assertThat(http.call(ORDERS, "GET", "/jobs?bizKey=" + BIZ_KEY, null).data())
                .hasSize(2);
        // and the owner pulls nothing the stranger could have taken: its reserved job is still its own
        assertThat(http.call(ORDERS, "POST", "/touch?jobId=" + reserved + "&ttr=600000", null)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void stats_show_only_the_callers_topics() {
        Answer mail = http.call(MAIL, "GET", "/stats", null);
        assertThat(mail.status()).isEqualTo(200);
        assertThat(mail.body()).doesNotContain(ORDER_TOPIC).doesNotContain(ORDER_PULL);
        mail.data()
                .path("topics")
                .forEach(line -> assertThat(line.path("topic").asText()).startsWith("mail-"));
        Answer orders = http.call(ORDERS, "GET", "/stats", null);
        assertThat(orders.body()).contains(ORDER_TOPIC).contains(ORDER_PULL);
        assertThat(http.call(ADMIN, "GET", "/stats", null).body()).contains(ORDER_TOPIC);
        // a foreign topic reads as a topic nobody used, whichever spelling
        String unused = "order-unused-" + RUN;
        for (String path : List.of("/stats/" + ORDER_TOPIC, "/stats?topic=" + ORDER_TOPIC)) {
            Answer foreign = http.call(MAIL, "GET", path, null);
            Answer never = http.call(ORDERS, "GET", path.replace(ORDER_TOPIC, unused), null);
            assertThat(withoutTime(foreign.body()))
                    .isEqualTo(withoutTime(never.body()).replace(unused, ORDER_TOPIC));
        }
        assertThat(http.call(ORDERS, "GET", "/stats/" + ORDER_TOPIC, null)
                        .data()
                        .path("pending")
                        .asLong())
                .isEqualTo(1);
        assertThat(http.call(MAIL, "GET", "/stats/due", null).status()).isEqualTo(403);
        assertThat(http.call(ADMIN, "GET", "/stats/due", null).status()).isEqualTo(200);
    }

    private static String withoutTime(String body) {
        return body.replaceAll("\"at\":\\d+", "\"at\":0");
    }

    @Test
    void without_a_token_or_with_a_wrong_one_every_data_plane_route_answers_401() {
        List<String[]> routes = new ArrayList<>(ID_ROUTES);
        routes.addAll(TOPIC_ROUTES);
        routes.add(new String[] {"GET", "/stats", null});
        routes.add(new String[] {"GET", "/stats/" + ORDER_TOPIC, null});
        routes.add(new String[] {"GET", "/jobs?bizKey=" + BIZ_KEY, null});
        for (String token : new String[] {null, "wrong-token", ORDERS + "x", ""}) {
            for (String[] route : routes) {
                Answer answer = call(token, route, waiting);
                assertThat(answer.status())
                        .as(token + " " + route[0] + " " + route[1] + ": " + answer)
                        .isEqualTo(401);
                assertThat(answer.wwwAuthenticate()).startsWith("Bearer");
                assertThat(answer.json().path("message").asText()).startsWith("token");
            }
        }
        // what is not the data plane keeps its own rules: health and the API document need no token
        // (503 is a health answer too: on a loaded machine a loop may report itself late)
        Answer health = http.call(null, "GET", "/actuator/health", null);
        assertThat(health.status()).as(health.toString()).isIn(200, 503);
        assertThat(health.body()).as(health.toString()).contains("\"status\"");
        assertThat(http.call(null, "GET", "/v3/api-docs", null).status()).isEqualTo(200);
        // an admin route takes the admin token, not a tenant's
        assertThat(http.call(ORDERS, "POST", "/stats/recount", null).status()).isEqualTo(401);
        assertThat(http.call(ADMIN, "POST", "/stats/recount", null).status()).isEqualTo(200);
    }

    @Test
    void each_tenant_works_in_its_own_topics() {
        String mailTopic = "mail-" + RUN;
        String id = http.push(MAIL, mailTopic, "m-" + RUN, 0);
        Answer got = http.call(MAIL, "GET", "/get/" + mailTopic + "?ttr=60000&timeout=10000", null);
        assertThat(got.data().path("id").asText()).as(got.toString()).isEqualTo(id);
        assertThat(http.call(ORDERS, "GET", "/finish?jobId=" + id, null).status())
                .isEqualTo(404);
        assertThat(http.call(MAIL, "GET", "/finish?jobId=" + id, null).status()).isEqualTo(200);
        Answer batch = http.call(
                MAIL,
                "POST",
                "/push/batch",
                "[{\"topic\":\"" + mailTopic + "\",\"delay\":5000},{\"topic\":\"mail-2-" + RUN + "\",\"delay\":5000}]");
        assertThat(batch.status()).as(batch.toString()).isEqualTo(200);
        assertThat(http.call(ADMIN, "GET", "/get/" + mailTopic + "?timeout=0", null)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void a_push_reusing_another_tenants_id_stores_a_job_of_its_own_and_leaves_that_job_as_it_was() throws Exception {
        String taken = http.push(ORDERS, ORDER_TOPIC, "taken-" + RUN, 3_600_000);
        Map<String, String> before = JobTrace.ofJobAlone(gateway, redis.client(), "orders~" + taken);
        String mailTopic = "mail-" + RUN;
        Answer answer = http.call(
                MAIL, "POST", "/push", "{\"id\":\"" + taken + "\",\"topic\":\"" + mailTopic + "\",\"delay\":0}");
        assertThat(answer.toString())
                .isEqualTo("200 {\"success\":true,\"code\":200,\"message\":\"ok\",\"data\":\"" + taken + "\"}");
        assertThat(JobTrace.ofJobAlone(gateway, redis.client(), "orders~" + taken))
                .isEqualTo(before);
        // the owner's own re-push of the id is the usual duplicate
        Answer again = http.call(
                ORDERS, "POST", "/push", "{\"id\":\"" + taken + "\",\"topic\":\"" + ORDER_TOPIC + "\",\"delay\":0}");
        assertThat(again.json().path("duplicate").asBoolean())
                .as(again.toString())
                .isTrue();
        assertThat(again.data().asText()).isEqualTo(taken);
        // a stored id is no id a push may choose, for no caller
        for (String token : List.of(MAIL, ADMIN)) {
            Answer spelt = http.call(
                    token,
                    "POST",
                    "/push",
                    "{\"id\":\"orders~" + taken + "\",\"topic\":\"" + mailTopic + "\",\"delay\":0}");
            assertThat(spelt.status()).as(spelt.toString()).isEqualTo(400);
        }
    }

    @Test
    void the_api_document_declares_the_bearer_scheme_on_every_data_plane_route() {
        com.fasterxml.jackson.databind.JsonNode doc =
                http.call(null, "GET", "/v3/api-docs", null).json();
        assertThat(doc.path("components")
                        .path("securitySchemes")
                        .path("tenantToken")
                        .path("scheme")
                        .asText())
                .isEqualTo("bearer");
        List<String> dataPlane = List.of(
                "post /push",
                "post /push/batch",
                "get /get/{topic}",
                "get /get/{topic}/batch",
                "get /finish",
                "post /finish/batch",
                "post /release",
                "post /touch",
                "get /delete",
                "get /jobs",
                "delete /jobs",
                "get /jobs/{id}",
                "put /jobs/{id}",
                "delete /jobs/{id}",
                "post /jobs/{id}/finish",
                "get /dead/{topic}",
                "get /stats",
                "get /stats/{topic}",
                "get /stats/due");
        for (String route : dataPlane) {
            String[] parts = route.split(" ");
            com.fasterxml.jackson.databind.JsonNode operation =
                    doc.path("paths").path(parts[1]).path(parts[0]);
            assertThat(operation.isMissingNode()).as(route).isFalse();
            assertThat(operation.path("security").toString()).as(route).contains("tenantToken");
        }
        assertThat(doc.path("paths")
                        .path("/stats/recount")
                        .path("post")
                        .path("security")
                        .toString())
                .doesNotContain("tenantToken")
                .contains("adminToken");
    }
}
