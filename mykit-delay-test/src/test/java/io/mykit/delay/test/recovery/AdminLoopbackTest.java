package io.mykit.delay.test.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.test.gateway.AdminCanaries;
import io.mykit.delay.test.gateway.AdminPathSpellings;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.RawHttp;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.NetworkNamespace;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Without a token (the default) admin calls are answered only to programs on this host: never to a caller elsewhere,
 * not even one that says (X-Forwarded-For) it was forwarded for 127.0.0.1, never to a caller a proxy forwarded, never
 * to a Host header that names another host (DNS rebinding), never to a browser call for a page of another origin.
 * {@code mykit.delay.admin.open=true} opens them to every address, pages of other origins excepted. Callers elsewhere
 * come from a network namespace this test makes ({@link NetworkNamespace}), through a relay inside it. The loopback
 * gateway trusts forwarded headers (server.forward-headers-strategy=native), as many deployments behind a proxy do.
 */
class AdminLoopbackTest {
    private static final String DEAD_TOPIC =
            "adm-" + UUID.randomUUID().toString().substring(0, 8);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Gateway({
        "server.forward-headers-strategy=native",
        "management.endpoints.web.exposure.include=health,info,prometheus,env"
    })
    private static TestGateway closed;

    @Gateway("mykit.delay.admin.open=true")
    private static TestGateway open;

    private static NetworkNamespace elsewhere;
    private static AdminCanaries canaries;

    @BeforeAll
    static void start() {
        elsewhere = NetworkNamespace.withRelayTo(port(closed), port(open));
    }

    @AfterAll
    static void stop() {
        if (elsewhere != null) {
            elsewhere.close();
        }
    }

    private static int port(TestGateway gateway) {
        return URI.create(gateway.baseUrl()).getPort();
    }

    private static String resolve(String target, AdminCanaries seeded) {
        return target.replace("{topic}", seeded.deadTopic()).replace("{lost}", seeded.lost());
    }

    /** A call from this host, over loopback, with a local client's Host header unless {@code headers} has one. */
    private static RawHttp.Answer fromHere(
            TestGateway gateway, String method, String target, Map<String, String> headers) throws IOException {
        return RawHttp.send("127.0.0.1", port(gateway), method, target, headers, null);
    }

    /** A call from the namespace's address, with Host 127.0.0.1:port: only where it comes from can tell it apart. */
    private static RawHttp.Answer fromElsewhere(
            TestGateway gateway, String method, String target, Map<String, String> headers) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(Map.of("Host", "127.0.0.1:" + port(gateway)));
        all.putAll(headers);
        int relay = elsewhere.relayPorts().get(gateway == closed ? 0 : 1);
        return RawHttp.send(elsewhere.insideAddress(), relay, method, target, all, null);
    }

    private static void assertRefused(String reply, RawHttp.Answer answer, String method, String... messageParts)
            throws IOException {
        assertThat(answer.status()).as(reply).isEqualTo(403);
        if (!method.equals("HEAD")) {
            JsonNode json = MAPPER.readTree(answer.body());
            assertThat(json.path("success").asBoolean(true)).as(reply).isFalse();
            assertThat(json.path("code").asInt()).as(reply).isEqualTo(403);
            assertThat(json.path("message").asText()).as(reply).contains(messageParts);
        }
    }

    /** The canaries of the last call, seeded anew when a call changed them. */
    private static AdminCanaries untouchedCanaries() throws InterruptedException {
        if (canaries == null || !canaries.changes().isEmpty()) {
            canaries = AdminCanaries.seed(closed, DEAD_TOPIC);
        }
        return canaries;
    }

    @Test
    void without_a_token_an_admin_route_answers_a_program_on_this_host() throws Exception {
        AdminCanaries seeded = AdminCanaries.seed(closed, DEAD_TOPIC);
        RawHttp.Answer answer = fromHere(closed, "GET", "/reStoreJob?jobId=" + seeded.lost(), Map.of());
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(seeded.changes()).containsExactly(seeded.lost() + " is back in Redis (a restore ran)");
        for (String host : new String[] {"localhost:" + port(closed), "[::1]:" + port(closed), "LOCALHOST"}) {
            RawHttp.Answer cluster = fromHere(closed, "GET", "/cluster", Map.of("Host", host));
            assertThat(cluster.status())
                    .as("Host: " + host + " -> " + cluster.body())
                    .isEqualTo(200);
        }
        RawHttp.Answer overIpv6 = RawHttp.send("::1", port(closed), "GET", "/cluster", Map.of(), null);
        assertThat(overIpv6.status()).as(overIpv6.body()).isEqualTo(200);
    }

    @ParameterizedTest
    @CsvSource({
        "GET, /clearAll",
        "GET, /clearAll?cancel=true",
        "GET, /cluster",
        "GET, /reStore?expire=true",
        "GET, /reStore/status",
        "GET, /reStoreJob?jobId={lost}",
        "POST, /dead/{topic}/respawn",
        "DELETE, /dead/{topic}",
        "HEAD, /clearAll",
        "HEAD, /reStoreJob?jobId={lost}",
        "POST, /admin/clear",
        "POST, /admin/restore?expire=true",
        "POST, /admin/restore/{lost}",
        "POST, /stats/recount"
    })
    void without_a_token_an_admin_route_refuses_a_caller_from_another_address_with_403(String method, String target)
            throws Exception {
        AdminCanaries seeded = untouchedCanaries();
        String sent = resolve(target, seeded);
        RawHttp.Answer answer = fromElsewhere(closed, method, sent, Map.of());
        String reply = method + " " + sent + " from " + elsewhere.insideAddress() + " -> " + answer.status() + " "
                + answer.body();
        assertRefused(reply, answer, method, "mykit.delay.admin.token", "mykit.delay.admin.open=true");
        assertThat(seeded.changes()).as("what " + reply + " changed").isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"GET, /cluster", "GET, /clearAll?cancel=true", "POST, /admin/clear?cancel=true"})
    void a_caller_elsewhere_saying_it_was_forwarded_for_127_0_0_1_is_still_refused(String method, String target)
            throws Exception {
        AdminCanaries seeded = untouchedCanaries();
        RawHttp.Answer answer = fromElsewhere(closed, method, target, Map.of("X-Forwarded-For", "127.0.0.1"));
        String reply = method + " " + target + " from " + elsewhere.insideAddress() + ", X-Forwarded-For: 127.0.0.1 -> "
                + answer.status() + " " + answer.body();
        assertRefused(reply, answer, method, "mykit.delay.admin.token");
        assertThat(seeded.changes()).as("what " + reply + " changed").isEmpty();
    }

    @Test
    void a_caller_a_proxy_on_this_host_forwarded_is_refused() throws Exception {
        AdminCanaries seeded = untouchedCanaries();
        RawHttp.Answer answer = fromHere(closed, "GET", "/clearAll", Map.of("X-Forwarded-For", "192.0.2.9"));
        assertRefused("forwarded for 192.0.2.9 -> " + answer.body(), answer, "GET", "mykit.delay.admin.token");
        assertThat(seeded.changes()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "GET | /clearAll?cancel=true | Origin=http://evil.example;Sec-Fetch-Site=cross-site",
                "GET | /clearAll?cancel=true | Sec-Fetch-Site=cross-site;Sec-Fetch-Mode=no-cors;Sec-Fetch-Dest=image",
                // a body-less form POST
                "POST | /admin/clear?cancel=true | Origin=http://evil.example;"
                        + "Content-Type=application/x-www-form-urlencoded",
                "POST | /admin/clear?cancel=true | Origin=null;Sec-Fetch-Site=cross-site",
                "POST | /admin/restore/{lost} | Origin=http://127.0.0.1:1;Sec-Fetch-Site=same-site",
                "DELETE | /dead/{topic} | Sec-Fetch-Site=same-site",
                "GET | /cluster | Origin=http://evil.example"
            })
    void without_a_token_a_browser_call_for_a_page_of_another_origin_is_refused(
            String method, String target, String headers) throws Exception {
        AdminCanaries seeded = untouchedCanaries();
        String sent = resolve(target, seeded);
        RawHttp.Answer answer = fromHere(closed, method, sent, headers(headers));
        String reply = method + " " + sent + " " + headers + " -> " + answer.status() + " " + answer.body();
        assertRefused(reply, answer, method, "another origin", "mykit.delay.admin.token");
        assertThat(seeded.changes()).as("what " + reply + " changed").isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "evil.example | ",
                "evil.example:{port} | Origin=http://evil.example:{port};Sec-Fetch-Site=same-origin",
                "192.0.2.2:{port} | "
            })
    void without_a_token_a_host_header_naming_another_host_is_refused(String host, String headers) throws Exception {
        Map<String, String> sent = headers(headers == null ? "" : headers.replace("{port}", "" + port(closed)));
        sent.put("Host", host.replace("{port}", "" + port(closed)));
        RawHttp.Answer answer = fromHere(closed, "GET", "/cluster", sent);
        assertRefused(
                "GET /cluster " + sent + " -> " + answer.body(), answer, "GET", "Host", "mykit.delay.admin.token");
    }

    @Test
    void a_same_origin_call_as_the_console_makes_is_answered() throws Exception {
        RawHttp.Answer answer = fromHere(
                closed,
                "GET",
                "/cluster",
                Map.of(
                        "Origin",
                        "http://127.0.0.1:" + port(closed),
                        "Sec-Fetch-Site",
                        "same-origin",
                        "Sec-Fetch-Mode",
                        "cors"));
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        RawHttp.Answer typed = fromHere(closed, "GET", "/reStore/status", Map.of("Sec-Fetch-Site", "none"));
        assertThat(typed.status()).as(typed.body()).isEqualTo(200);
    }

    /** The wiping routes in every spelling (AdminTokenTest tries every route's): the guard's verdict is the same. */
    static Stream<Arguments> wipeSpellings() {
        return Stream.of("/clearAll", "/admin/clear").flatMap(path -> {
            Stream<String> spellings = Stream.concat(Stream.of(path), AdminPathSpellings.of(path).stream());
            return spellings.flatMap(
                    spelling -> (path.equals("/clearAll") ? Stream.of("GET", "HEAD") : Stream.of("POST"))
                            .map(method -> Arguments.of(method, spelling + "?cancel=true")));
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wipeSpellings")
    void no_spelling_of_a_wipe_reaches_its_handler_for_a_page_of_another_origin(String method, String target)
            throws Exception {
        AdminCanaries seeded = untouchedCanaries();
        String sent = resolve(target, seeded);
        RawHttp.Answer answer =
                fromHere(closed, method, sent, Map.of("Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"));
        String reply = method + " " + sent + " -> " + answer.status() + " " + answer.body();
        assertThat(answer.status()).as(reply).isBetween(400, 499);
        assertThat(seeded.changes()).as("what " + reply + " changed").isEmpty();
    }

    @Test
    void without_a_token_ordinary_routes_answer_a_caller_from_another_address() throws Exception {
        RawHttp.Answer answer = fromElsewhere(closed, "GET", "/dead/" + DEAD_TOPIC, Map.of());
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    }

    @Test
    void an_exposed_actuator_endpoint_beyond_health_info_and_prometheus_is_an_admin_call() throws Exception {
        assertThat(fromHere(closed, "GET", "/actuator/env", Map.of()).status()).isEqualTo(200);
        RawHttp.Answer remote = fromElsewhere(closed, "GET", "/actuator/env", Map.of());
        assertRefused("/actuator/env from elsewhere -> " + remote.body(), remote, "GET", "mykit.delay.admin.token");
        RawHttp.Answer page =
                fromHere(closed, "GET", "/actuator/env/java.home", Map.of("Origin", "http://evil.example"));
        assertRefused("/actuator/env/java.home for a page -> " + page.body(), page, "GET", "another origin");
        for (String open : new String[] {"/actuator/health", "/actuator/info", "/actuator/prometheus"}) {
            assertThat(fromElsewhere(closed, "GET", open, Map.of()).status())
                    .as(open)
                    .isEqualTo(200);
        }
    }

    @Test
    void health_details_are_for_the_admin_and_its_status_for_everyone() throws Exception {
        JsonNode local = MAPPER.readTree(
                fromHere(closed, "GET", "/actuator/health", Map.of()).body());
        assertThat(local.path("components").path("diskSpace").path("details").has("path"))
                .as(local.toString())
                .isTrue();
        RawHttp.Answer remote = fromElsewhere(closed, "GET", "/actuator/health", Map.of());
        assertThat(remote.status()).as(remote.body()).isEqualTo(200);
        JsonNode health = MAPPER.readTree(remote.body());
        assertThat(health.path("status").asText()).isEqualTo("UP");
        assertThat(health.path("components").path("redis").path("status").asText())
                .isEqualTo("UP");
        assertThat(health.findValues("details")).as(remote.body()).isEmpty();
        RawHttp.Answer readiness = fromElsewhere(closed, "GET", "/actuator/health/readiness", Map.of());
        assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
        assertThat(MAPPER.readTree(readiness.body()).findValues("details"))
                .as(readiness.body())
                .isEmpty();
    }

    @Test
    void with_admin_open_an_admin_route_answers_a_caller_from_another_address() throws Exception {
        AdminCanaries seeded = AdminCanaries.seed(open, DEAD_TOPIC);
        RawHttp.Answer answer = fromElsewhere(open, "GET", "/reStoreJob?jobId=" + seeded.lost(), Map.of());
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(seeded.changes()).containsExactly(seeded.lost() + " is back in Redis (a restore ran)");
    }

    @Test
    void with_admin_open_a_page_of_another_origin_is_still_refused() throws Exception {
        AdminCanaries seeded = AdminCanaries.seed(open, DEAD_TOPIC);
        RawHttp.Answer answer = fromElsewhere(
                open,
                "GET",
                "/clearAll?cancel=true",
                Map.of("Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"));
        assertRefused("open, a page's /clearAll -> " + answer.body(), answer, "GET", "another origin");
        assertThat(seeded.changes()).isEmpty();
    }

    /** {@code Name=value;Name=value} as headers. */
    private static Map<String, String> headers(String spec) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String pair : spec.split(";")) {
            if (!pair.isBlank()) {
                headers.put(
                        pair.substring(0, pair.indexOf('=')).trim(),
                        pair.substring(pair.indexOf('=') + 1).trim());
            }
        }
        return headers;
    }
}
