package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TRACE is refused on every path with the JSON 405, and nothing of the request's headers comes back. */
class TraceTest {
    private static final String SECRET = "trace-admin-secret";

    @Gateway("mykit.delay.admin.token=" + SECRET)
    private static TestGateway gateway;

    @Test
    void trace_never_echoes_the_admin_token() throws Exception {
        int port = URI.create(gateway.baseUrl()).getPort();
        for (String path : List.of("/push", "/", "/console", "/actuator/health", "/clearAll", "/no-such-route")) {
            RawHttp.Answer answer = RawHttp.send(
                    "127.0.0.1",
                    port,
                    "TRACE",
                    path,
                    Map.of("X-Admin-Token", SECRET, "Authorization", "Bearer " + SECRET + "-bearer"),
                    null);
            assertThat(answer.status()).as(path).isEqualTo(405);
            assertThat(answer.body()).as(path).doesNotContain(SECRET).contains("\"success\":false");
            assertThat(answer.headers().values()).as(path).noneMatch(value -> value.contains(SECRET));
        }
    }
}
