package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.gateway.TestGateway;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tenants from mykit.delay.tenants-file: a token taken out of the file stops working without a restart. */
class TenantTokenRotationTest {
    @TempDir
    Path dir;

    @Test
    void a_token_removed_from_the_tenants_file_stops_working_and_a_bad_file_changes_nothing() throws Exception {
        String topic = "rot-" + UUID.randomUUID().toString().substring(0, 8);
        Path file = dir.resolve("tenants.properties");
        Files.writeString(file, """
                mykit.delay.tenants.orders.tokens=old-token,new-token
                mykit.delay.tenants.orders.topics=rot-*
                """);
        try (TestGateway gateway = TestGateway.start("mykit.delay.tenants-file=" + file)) {
            TenantHttp http = new TenantHttp(gateway.baseUrl());
            http.push("old-token", topic, "k", 60_000);
            http.push("new-token", topic, "k", 60_000);

            Files.writeString(file, """
                    mykit.delay.tenants.orders.tokens=new-token
                    mykit.delay.tenants.orders.topics=rot-*
                    """);
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> http.call("old-token", "GET", "/stats", null).status() == 401);
            assertThat(http.call("new-token", "GET", "/stats/" + topic, null).status())
                    .isEqualTo(200);

            // a misspelt key: the file is refused whole and the tenants in force stay
            Files.writeString(file, """
                    mykit.delay.tenants.orders.tokens=new-token,old-token
                    mykit.delay.tenants.orders.topcs=rot-*
                    """);
            Thread.sleep(5_000); // two passes of the watch: nothing may change, so there is nothing to await
            assertThat(http.call("old-token", "GET", "/stats", null).status()).isEqualTo(401);
            assertThat(http.call("new-token", "GET", "/stats", null).status()).isEqualTo(200);

            // an emptied file would open every topic to everyone: refused too
            Files.writeString(file, "");
            Thread.sleep(5_000);
            assertThat(http.call(null, "GET", "/stats", null).status()).isEqualTo(401);

            Files.writeString(file, """
                    mykit.delay.tenants.orders.tokens=new-token,third-token
                    mykit.delay.tenants.orders.topics=rot-*
                    """);
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> http.call("third-token", "GET", "/stats", null).status() == 200);
        }
    }
}
