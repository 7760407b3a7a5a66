package io.mykit.delay.test.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.test.gateway.AdminCanaries;
import io.mykit.delay.test.gateway.AdminPathSpellings;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.RawHttp;
import io.mykit.delay.test.gateway.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Admin routes need the configured token, however the path is spelled; other routes do not. That callers from every
 * address need it too is AdminGuardTest's (a request object carrying a remote address).
 */
public class AdminTokenTest {
    protected static final String TOKEN = "s3cret-admin-token";
    private static final String DEAD_TOPIC =
            "adm-" + UUID.randomUUID().toString().substring(0, 8);
    /** Stands for the canary job a restore would bring back; replaced per call. */
    private static final String LOST_ID = "LOST_ID";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Gateway("mykit.delay.admin.token=" + TOKEN)
    private static TestGateway gateway;

    private static String base;
    private static int port;
    private static AdminCanaries canaries;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        startOn(gateway);
    }

    /** Runs the suite against {@code on}: a subclass hides {@link #start} to pass its own, with tenants say. */
    protected static void startOn(TestGateway on) {
        gateway = on;
        // a subclass's run before this one left its own gateway's canaries here
        canaries = null;
        base = gateway.baseUrl();
        port = URI.create(base).getPort();
    }

    private int call(String method, String path, String header, String value) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(base + path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (header != null) {
            request.header(header, value);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 401) {
            assertThat(response.headers().firstValue("WWW-Authenticate"))
                    .as("401 challenge")
                    .isPresent();
            if (!method.equals("HEAD")) {
                JsonNode json = MAPPER.readTree(response.body());
                assertThat(json.path("success").asBoolean(true))
                        .as(response.body())
                        .isFalse();
                assertThat(json.path("code").asInt()).as(response.body()).isEqualTo(401);
                assertThat(json.path("field").asText()).as(response.body()).isEqualTo("Authorization");
            }
        }
        return response.statusCode();
    }

    @ParameterizedTest
    @CsvSource({
        "GET, /clearAll",
        "GET, /reStore?expire=false",
        "GET, /reStore/status",
        "GET, /reStoreJob?jobId=abc",
        "POST, /dead/some-topic/respawn",
        "DELETE, /dead/some-topic",
        "HEAD, /clearAll",
        "HEAD, /reStore/status",
        "POST, /admin/clear",
        "POST, /admin/restore?expire=false",
        "POST, /admin/restore/abc"
    })
    void admin_route_without_or_with_a_wrong_token_is_401_and_with_it_is_let_through(String method, String path)
            throws Exception {
        assertThat(call(method, path, null, null)).isEqualTo(401);
        assertThat(call(method, path, "Authorization", "Bearer wrong")).isEqualTo(401);
        assertThat(call(method, path, "X-Admin-Token", "wrong")).isEqualTo(401);
        assertThat(call(method, path, "Authorization", "Basic " + TOKEN)).isEqualTo(401);
        assertThat(call(method, path, "Authorization", "Bearer " + TOKEN + "x")).isEqualTo(401);
        assertThat(call(method, path, "Authorization", "Bearer " + TOKEN)).isNotEqualTo(401);
        assertThat(call(method, path, "X-Admin-Token", TOKEN)).isNotEqualTo(401);
    }

    @ParameterizedTest
    @CsvSource({"GET, /dead/some-topic", "GET, /jobs/unknown", "GET, /get/some-topic?timeout=0"})
    void ordinary_routes_need_no_token(String method, String path) throws Exception {
        assertThat(call(method, path, null, null)).isNotEqualTo(401);
    }

    static Stream<Arguments> adminRouteSpellings() {
        return AdminPathSpellings.adminCalls(DEAD_TOPIC, LOST_ID).stream()
                .map(call -> Arguments.of(call.method(), call.target()));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("adminRouteSpellings")
    void no_spelling_of_an_admin_route_reaches_its_handler_without_the_token(String method, String target)
            throws Exception {
        AdminCanaries seeded = untouchedCanaries();
        String sent = target.replace(LOST_ID, seeded.lost());
        RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, method, sent, Map.of(), null);
        String reply = method + " " + sent + " -> " + answer.status() + " " + answer.body();
        assertThat(answer.status()).as(reply).isBetween(400, 499);
        if (!method.equals("HEAD")) {
            JsonNode json = MAPPER.readTree(answer.body());
            assertThat(json.path("success").isBoolean() && !json.path("success").asBoolean())
                    .as(reply)
                    .isTrue();
            assertThat(json.path("code").asInt()).as(reply).isEqualTo(answer.status());
        }
        assertThat(seeded.changes())
                .as("what " + method + " " + sent + " changed")
                .isEmpty();
    }

    /** The canaries of the last call, seeded anew when a call (one with the token, say) changed them. */
    private static AdminCanaries untouchedCanaries() throws InterruptedException {
        if (canaries == null || !canaries.changes().isEmpty()) {
            canaries = AdminCanaries.seed(gateway, DEAD_TOPIC);
        }
        return canaries;
    }
}
