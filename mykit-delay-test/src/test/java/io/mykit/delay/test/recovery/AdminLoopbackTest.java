package io.mykit.delay.test.recovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.test.gateway.AdminCanaries;
import io.mykit.delay.test.gateway.RawHttp;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.HostAddresses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without a token (the default) admin routes answer loopback callers only; {@code mykit.delay.admin.open=true} opens
 * them to every address, as before. Callers from elsewhere come through this machine's non-loopback address.
 */
class AdminLoopbackTest {
    private static final String DEAD_TOPIC = "adm-" + UUID.randomUUID().toString().substring(0, 8);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static TestGateway closed;
    private static TestGateway open;
    private static String otherAddress;

    @BeforeAll
    static void start() {
        otherAddress = HostAddresses.nonLoopbackIpv4();
        closed = TestGateway.start();
        open = TestGateway.start("mykit.delay.admin.open=true");
    }

    @AfterAll
    static void stop() {
        if (closed != null) {
            closed.close();
        }
        if (open != null) {
            open.close();
        }
    }

    private static int port(TestGateway gateway) {
        return URI.create(gateway.baseUrl()).getPort();
    }

    private static String resolve(String target, AdminCanaries canaries) {
        return target.replace("{topic}", canaries.deadTopic()).replace("{lost}", canaries.lost());
    }

    @Test
    void without_a_token_an_admin_route_answers_a_loopback_caller() throws Exception {
        AdminCanaries canaries = AdminCanaries.seed(closed, DEAD_TOPIC);
        RawHttp.Answer answer = RawHttp.send("127.0.0.1", port(closed), "GET",
                "/reStoreJob?jobId=" + canaries.lost(), Map.of(), null);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(canaries.changes()).containsExactly(canaries.lost() + " is back in Redis (a restore ran)");
    }

    @ParameterizedTest
    @CsvSource({
            "GET, /clearAll",
            "GET, /reStore?expire=true",
            "GET, /reStore/status",
            "GET, /reStoreJob?jobId={lost}",
            "POST, /dead/{topic}/respawn",
            "DELETE, /dead/{topic}",
            "HEAD, /clearAll",
            "HEAD, /reStoreJob?jobId={lost}",
            "POST, /admin/clear",
            "POST, /admin/restore?expire=true",
            "POST, /admin/restore/{lost}"})
    void without_a_token_an_admin_route_refuses_a_caller_from_another_address_with_403(String method, String target)
            throws Exception {
        AdminCanaries canaries = AdminCanaries.seed(closed, DEAD_TOPIC);
        String sent = resolve(target, canaries);
        RawHttp.Answer answer = RawHttp.send(otherAddress, port(closed), method, sent, Map.of(), null);
        String reply = method + " " + sent + " from " + otherAddress + " -> " + answer.status() + " " + answer.body();
        assertThat(answer.status()).as(reply).isEqualTo(403);
        if (!method.equals("HEAD")) {
            JsonNode json = MAPPER.readTree(answer.body());
            assertThat(json.path("success").asBoolean(true)).as(reply).isFalse();
            assertThat(json.path("code").asInt()).as(reply).isEqualTo(403);
            assertThat(json.path("message").asText()).as(reply)
                    .contains("mykit.delay.admin.token").contains("mykit.delay.admin.open=true");
        }
        assertThat(canaries.changes()).as("what " + reply + " changed").isEmpty();
    }

    @Test
    void without_a_token_ordinary_routes_answer_a_caller_from_another_address() throws Exception {
        RawHttp.Answer answer = RawHttp.send(otherAddress, port(closed), "GET", "/dead/" + DEAD_TOPIC, Map.of(), null);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    }

    @Test
    void with_admin_open_an_admin_route_answers_a_caller_from_another_address() throws Exception {
        AdminCanaries canaries = AdminCanaries.seed(open, DEAD_TOPIC);
        RawHttp.Answer answer = RawHttp.send(otherAddress, port(open), "GET",
                "/reStoreJob?jobId=" + canaries.lost(), Map.of(), null);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(canaries.changes()).containsExactly(canaries.lost() + " is back in Redis (a restore ran)");
    }
}
