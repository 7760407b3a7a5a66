package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.TestGateway;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A tenant named default without a token takes the calls that send none (clients of the original, during a migration),
 * only in its own topics; the admin routes keep their loopback rule while no admin token is set.
 */
class DefaultTenantTest {
    @Test
    void calls_without_a_token_are_the_default_tenants() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        try (TestGateway gateway = TestGateway.start(
                "mykit.delay.tenants.default.topics=legacy-*",
                "mykit.delay.tenants.orders.token=orders-token",
                "mykit.delay.tenants.orders.topics=order-*")) {
            TenantHttp http = new TenantHttp(gateway.baseUrl());
            String id = http.push(null, "legacy-" + run, "k", 60_000);
            assertThat(http.call(null, "GET", "/jobs/" + id, null).status()).isEqualTo(200);
            assertThat(http.call("orders-token", "GET", "/jobs/" + id, null).status())
                    .isEqualTo(404);
            assertThat(http.call(null, "POST", "/push", "{\"topic\":\"order-" + run + "\",\"delay\":0}")
                            .status())
                    .isEqualTo(403);
            // a wrong token is not taken for no token
            assertThat(http.call("nobody", "GET", "/jobs/" + id, null).status()).isEqualTo(401);
            // admin routes: loopback, no token set
            assertThat(http.call(null, "POST", "/stats/recount", null).status()).isEqualTo(200);
        }
    }
}
