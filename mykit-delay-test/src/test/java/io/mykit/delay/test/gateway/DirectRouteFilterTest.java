package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mykit.delay.controller.DirectRouteFilter;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationListener;
import org.springframework.web.context.support.ServletRequestHandledEvent;

/**
 * {@link DirectRouteFilter} answers push, get and finish exactly as the Spring MVC controllers do: the same calls, good
 * and bad, go to a gateway with the filter and to one without it (mykit.delay.http.direct-routes=false), and every
 * answer (status and JSON, the ids a push made aside) must match.
 */
class DirectRouteFilterTest {
    private static final String JSON = "application/json";
    // Spring MVC's request events (off in application.yml) tell which calls it dispatched
    @Gateway("spring.mvc.publish-request-handled-events=true")
    private static TestGateway direct;

    @Gateway("mykit.delay.http.direct-routes=false")
    private static TestGateway throughMvc;

    @Test
    void the_filter_is_there_in_one_gateway_and_not_in_the_other() {
        assertThat(direct.beans(FilterRegistrationBean.class).values().stream()
                        .anyMatch(r -> r.getFilter() instanceof DirectRouteFilter))
                .isTrue();
        assertThat(throughMvc.beans(FilterRegistrationBean.class).values().stream()
                        .noneMatch(r -> r.getFilter() instanceof DirectRouteFilter))
                .isTrue();
    }

    @Test
    void pushes_good_and_bad_answer_the_same() {
        String topic = "hot-" + UUID.randomUUID().toString().substring(0, 8);
        List<String[]> calls = new ArrayList<>();
        calls.add(new String[] {"POST", "/push", JSON, "{\"topic\":\"" + topic + "\",\"delay\":60000,\"body\":\"b\"}"});
        calls.add(new String[] {
            "POST", "/push", "application/json;charset=UTF-8", "{\"topic\":\"" + topic + "\",\"delay\":1}"
        });
        calls.add(new String[] {"POST", "/push", JSON, "{\"topic\":\"" + topic + "\",\"delay\":"});
        calls.add(new String[] {"POST", "/push", JSON, ""});
        calls.add(new String[] {"POST", "/push", JSON, "{\"delay\":1000}"});
        calls.add(new String[] {"POST", "/push", JSON, "{\"topic\":\"" + topic + "\",\"delay\":-5}"});
        calls.add(new String[] {"POST", "/push", JSON, "{\"topic\":\"" + topic + "\",\"delay\":1,\"colour\":\"red\"}"});
        calls.add(new String[] {"POST", "/push", JSON, "{\"topic\":\"" + topic + "\",\"delay\":\"soon\"}"});
        calls.add(new String[] {"POST", "/push", JSON, "[1,2]"});
        calls.add(new String[] {"POST", "/push", "text/plain", "{\"topic\":\"" + topic + "\",\"delay\":1}"});
        calls.add(new String[] {"POST", "/push", null, "{\"topic\":\"" + topic + "\",\"delay\":1}"});
        calls.add(new String[] {"POST", "/push", "application/*", "{\"topic\":\"" + topic + "\",\"delay\":1}"});
        calls.add(new String[] {"GET", "/push", null, null});
        calls.add(new String[] {"POST", "/push;x=1", JSON, "{\"topic\":\"" + topic + "\",\"delay\":1}"});
        String fixedId = "hot-fixed-" + UUID.randomUUID();
        calls.add(new String[] {
            "POST", "/push", JSON, "{\"topic\":\"" + topic + "\",\"id\":\"" + fixedId + "\",\"delay\":60000}"
        });
        calls.add(new String[] {
            "POST", "/push", JSON, "{\"topic\":\"" + topic + "\",\"id\":\"" + fixedId + "\",\"delay\":60000}"
        });
        assertSameAnswers(calls);
    }

    @Test
    void gets_and_finishes_good_and_bad_answer_the_same() {
        String topic = "hot-" + UUID.randomUUID().toString().substring(0, 8);
        List<String[]> calls = new ArrayList<>();
        calls.add(new String[] {"GET", "/get/" + topic + "?timeout=0", null, null});
        calls.add(new String[] {"GET", "/get/" + topic, null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?timeout=300&ttr=5000", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?timeout=-1", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?timeout=99999999", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?ttr=0", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?ttr=abc", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?ttr=", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?timeout=1&timeout=2", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?other=1&timeout=0", null, null});
        calls.add(new String[] {"GET", "/get/bad%20topic?timeout=0", null, null});
        calls.add(new String[] {"GET", "/get/" + "x".repeat(300) + "?timeout=0", null, null});
        calls.add(new String[] {"GET", "/finish?jobId=hot-nobody-" + UUID.randomUUID(), null, null});
        calls.add(new String[] {"GET", "/finish", null, null});
        calls.add(new String[] {"GET", "/finish?jobId=", null, null});
        calls.add(new String[] {"GET", "/finish?jobId=a&jobId=b", null, null});
        calls.add(new String[] {"POST", "/finish?jobId=x", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?timeout=09", null, null});
        calls.add(new String[] {"GET", "/get/" + topic + "?ttr=0x10&timeout=0", null, null});
        assertSameAnswers(calls);
    }

    @Test
    void batch_gets_and_finishes_good_and_bad_answer_the_same() {
        String topic = "hot-" + UUID.randomUUID().toString().substring(0, 8);
        String batch = "/get/" + topic + "/batch";
        List<String[]> calls = new ArrayList<>();
        calls.add(new String[] {"GET", batch + "?count=10&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=3&timeout=200&ttr=5000", null, null});
        calls.add(new String[] {"GET", batch + "?timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=0&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=100000&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=9999999999&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=abc&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=010&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=2&count=3&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=2&timeout=-1", null, null});
        calls.add(new String[] {"GET", batch + "?count=2&ttr=0&timeout=0", null, null});
        calls.add(new String[] {"GET", batch + "?count=2&other=1&timeout=0", null, null});
        calls.add(new String[] {"GET", "/get/bad%20topic/batch?count=2&timeout=0", null, null});
        calls.add(new String[] {"GET", "/get/" + "x".repeat(300) + "/batch?count=2&timeout=0", null, null});
        calls.add(new String[] {"GET", "/get//batch?count=2&timeout=0", null, null});
        String nobody = "hot-nobody-" + UUID.randomUUID();
        calls.add(new String[] {"POST", "/finish/batch", JSON, "[\"" + nobody + "\"]"});
        calls.add(
                new String[] {"POST", "/finish/batch", "application/json;charset=UTF-8", "[\"" + nobody + "\",\"a b\"]"
                });
        calls.add(new String[] {"POST", "/finish/batch", JSON, "[]"});
        calls.add(new String[] {"POST", "/finish/batch", JSON, ""});
        calls.add(new String[] {"POST", "/finish/batch", JSON, "null"});
        calls.add(new String[] {"POST", "/finish/batch", JSON, "[\"a\","});
        calls.add(new String[] {"POST", "/finish/batch", JSON, "{\"jobId\":\"a\"}"});
        calls.add(new String[] {"POST", "/finish/batch", JSON, "[1,2]"});
        calls.add(new String[] {"POST", "/finish/batch", JSON, "[null]"});
        calls.add(new String[] {"POST", "/finish/batch", JSON, "[[\"a\"]]"});
        calls.add(new String[] {"POST", "/finish/batch", "text/plain", "[\"" + nobody + "\"]"});
        calls.add(new String[] {"POST", "/finish/batch", null, "[\"" + nobody + "\"]"});
        calls.add(new String[] {"POST", "/finish/batch?x=1", JSON, "[\"" + nobody + "\"]"});
        calls.add(new String[] {"GET", "/finish/batch", null, null});
        assertSameAnswers(calls);
    }

    @Test
    void a_batch_goes_round_through_the_filter() {
        GatewayClient client = direct.client();
        String topic = "hot-batch-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"body\":\"b" + i + "\"}")
                    .data()
                    .asText());
        }
        List<String> got = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Reply reply = client.get("/get/" + topic + "/batch?count=10&timeout=1000&ttr=30000");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            reply.data().forEach(job -> got.add(job.path("id").asText()));
            return got.size() >= 3;
        });
        assertThat(got).containsExactlyInAnyOrderElementsOf(ids);
        String body = "[\"" + String.join("\",\"", ids) + "\"]";
        Reply finished = client.raw("POST", "/finish/batch", JSON, body);
        assertThat(finished.status()).as(finished.toString()).isEqualTo(200);
        List<String> done = new ArrayList<>();
        finished.data().path("finished").forEach(id -> done.add(id.asText()));
        assertThat(done).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(finished.data().path("refused").size()).isZero();
        // a long-poll that waits: answered later, from the async side, with the job pushed meanwhile
        Thread later = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"id\":\"" + topic + "-late\"}");
        });
        later.start();
        Reply waited = client.get("/get/" + topic + "/batch?count=5&timeout=10000");
        assertThat(waited.data().isArray()).as(waited.toString()).isTrue();
        assertThat(waited.data().get(0).path("id").asText())
                .as(waited.toString())
                .isEqualTo(topic + "-late");
        Reply none = client.get("/get/" + topic + "/batch?count=5&timeout=100");
        assertThat(none.data().isArray() && none.data().isEmpty())
                .as(none.toString())
                .isTrue();
    }

    @Test
    void plainly_spelled_calls_never_reach_spring_mvc_and_others_do() {
        List<String> dispatched = new java.util.concurrent.CopyOnWriteArrayList<>();
        direct.listen((ApplicationListener<ServletRequestHandledEvent>) e -> dispatched.add(e.getRequestUrl()));
        GatewayClient client = direct.client();
        String topic = "hot-mvc-" + UUID.randomUUID().toString().substring(0, 8);
        String id =
                client.push("{\"topic\":\"" + topic + "\",\"delay\":0}").data().asText();
        assertThat(client.get(topic, 30_000, 30_000).data().path("id").asText()).isEqualTo(id);
        assertThat(client.finish(id).status()).isEqualTo(200);
        client.get("/get/" + topic + "/batch?count=5&timeout=0");
        client.raw("POST", "/finish/batch", JSON, "[\"" + id + "\"]");
        client.raw("POST", "/push;x=1", JSON, "{\"topic\":\"" + topic + "\",\"delay\":60000}");
        client.get("/get/" + topic + "?ttr=abc");
        client.get("/get/" + topic + "/batch?count=0x5&timeout=0");

        // the event follows the answer on the request's thread: wait for it
        await().atMost(Duration.ofSeconds(30)).until(() -> dispatched.size() >= 3);
        assertThat(dispatched)
                .as("requests Spring MVC handled")
                .containsExactly("/push;x=1", "/get/" + topic, "/get/" + topic + "/batch");
    }

    @Test
    void a_job_goes_round_through_the_filter() {
        GatewayClient client = direct.client();
        String topic = "hot-round-" + UUID.randomUUID().toString().substring(0, 8);
        Reply pushed = client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"body\":\"hello\"}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        String id = pushed.data().asText();
        Reply got = client.get(topic, 30_000, 30_000);
        assertThat(got.data().path("id").asText()).as(got.toString()).isEqualTo(id);
        assertThat(got.data().path("body").asText()).isEqualTo("hello");
        assertThat(client.finish(id).status()).isEqualTo(200);
        Reply again = client.finish(id);
        assertThat(again.status()).as("finished before: " + again).isEqualTo(throughMvcFinishOfAnEndedJob(topic));
    }

    /** What the controllers answer to a second finish, to hold the filter's answer against. */
    private static int throughMvcFinishOfAnEndedJob(String topic) {
        GatewayClient client = throughMvc.client();
        String id = client.push("{\"topic\":\"" + topic + "-mvc\",\"delay\":0}")
                .data()
                .asText();
        Reply got = client.get(topic + "-mvc", 30_000, 30_000);
        assertThat(got.data().path("id").asText()).isEqualTo(id);
        assertThat(client.finish(id).status()).isEqualTo(200);
        return client.finish(id).status();
    }

    private static void assertSameAnswers(List<String[]> calls) {
        for (String[] call : calls) {
            Reply mine = direct.client().raw(call[0], call[1], call[2], call[3]);
            Reply theirs = throughMvc.client().raw(call[0], call[1], call[2], call[3]);
            String what = call[0] + " " + call[1] + " (" + call[2] + ") " + call[3];
            assertThat(mine.status())
                    .as("%s: filter %s, controllers %s", what, mine, theirs)
                    .isEqualTo(theirs.status());
            assertThat(normalized(mine.json()))
                    .as("%s: filter %s, controllers %s", what, mine, theirs)
                    .isEqualTo(normalized(theirs.json()));
        }
    }

    /** A push's generated id differs between the two gateways; everything else must not. */
    private static JsonNode normalized(JsonNode json) {
        if (json instanceof ObjectNode object
                && object.path("success").asBoolean(false)
                && object.path("data").isTextual()
                && !object.path("data").asText().startsWith("hot-")) {
            ObjectNode copy = object.deepCopy();
            copy.put("data", "<generated id>");
            return copy;
        }
        return json;
    }
}
