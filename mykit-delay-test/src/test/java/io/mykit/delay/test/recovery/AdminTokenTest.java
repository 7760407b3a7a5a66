package io.mykit.delay.test.recovery;

import io.mykit.delay.test.gateway.TestGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Admin routes need the configured token; the rest of the API does not. */
class AdminTokenTest {
    private static final String TOKEN = "s3cret-admin-token";
    private static TestGateway gateway;
    private static String base;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        gateway = TestGateway.start("mykit.delay.admin.token=" + TOKEN);
        base = gateway.baseUrl();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private int call(String method, String path, String header, String value) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (header != null) {
            request.header(header, value);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 401) {
            assertThat(response.body()).contains("\"success\":false").contains("\"code\":401");
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
            "DELETE, /dead/some-topic"})
    void admin_route_without_or_with_a_wrong_token_is_401_and_with_it_is_let_through(String method, String path)
            throws Exception {
        assertThat(call(method, path, null, null)).isEqualTo(401);
        assertThat(call(method, path, "Authorization", "Bearer wrong")).isEqualTo(401);
        assertThat(call(method, path, "X-Admin-Token", "wrong")).isEqualTo(401);
        assertThat(call(method, path, "Authorization", "Basic " + TOKEN)).isEqualTo(401);
        assertThat(call(method, path, "Authorization", "Bearer " + TOKEN)).isNotEqualTo(401);
        assertThat(call(method, path, "X-Admin-Token", TOKEN)).isNotEqualTo(401);
    }

    @ParameterizedTest
    @CsvSource({"GET, /dead/some-topic", "GET, /jobs/unknown", "GET, /get/some-topic?timeout=0"})
    void ordinary_routes_need_no_token(String method, String path) throws Exception {
        assertThat(call(method, path, null, null)).isNotEqualTo(401);
    }
}
