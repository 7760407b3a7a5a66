package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What /actuator/info and /actuator/prometheus show to a caller who is not the admin: no tenant name or volume, no
 * store address or port; the admin (here: the token) sees both.
 */
class InfoAndMetricsExposureTest {
    private static final String ADMIN = "exposure-admin-token";
    private static final String TENANT = "acmeexposed";

    @Gateway({
        "mykit.delay.admin.token=" + ADMIN,
        "mykit.delay.tenants." + TENANT + ".token=acme-token",
        "mykit.delay.tenants." + TENANT + ".topics=acme-*"
    })
    private static TestGateway gateway;

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void a_tenant_pushes() throws Exception {
        HttpResponse<String> pushed = call(
                "acme-token",
                HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/push"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"topic\":\"acme-orders\",\"delay\":600000}")));
        assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(200);
    }

    @Test
    void info_shows_no_store_address_or_tenant_to_others_and_both_to_the_admin() throws Exception {
        String redisPort = Integer.toString(TestServers.redis().port());
        String others = get("/actuator/info", null);
        assertThat(others).contains("\"mode\":\"standalone\"").contains("\"embedded\":false");
        assertThat(others)
                .doesNotContain(TENANT)
                .doesNotContain(":" + redisPort)
                .doesNotContain(gateway.database())
                .doesNotContain(gateway.keyPrefix())
                .doesNotContain("127.0.0.1");
        assertThat(get("/actuator/info", ADMIN)).contains(":" + redisPort).contains(gateway.database());
    }

    @Test
    void prometheus_shows_no_tenant_series_to_others_and_the_admin_gets_them() throws Exception {
        String redisPort = Integer.toString(TestServers.redis().port());
        String others = get("/actuator/prometheus", null);
        assertThat(others).contains("mykit_delay_pushes_total");
        assertThat(others)
                .doesNotContain(TENANT)
                .doesNotContain("mykit_delay_tenant_")
                .doesNotContain(":" + redisPort)
                .doesNotContain(gateway.database());
        assertThat(get("/actuator/prometheus", ADMIN))
                .containsPattern("mykit_delay_tenant_pushes_total\\{[^}]*tenant=\"" + TENANT + "\"} [1-9]");
    }

    private static String get(String path, String token) throws IOException, InterruptedException {
        HttpResponse<String> response = call(
                token,
                HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).GET());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private static HttpResponse<String> call(String token, HttpRequest.Builder request)
            throws IOException, InterruptedException {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
