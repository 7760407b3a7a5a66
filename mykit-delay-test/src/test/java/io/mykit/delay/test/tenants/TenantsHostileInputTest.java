package io.mykit.delay.test.tenants;

import io.mykit.delay.test.gateway.HostileInputTest;
import org.junit.jupiter.api.BeforeAll;

/**
 * The hostile-input suite with tenants configured: calls without a token are the tokenless default tenant's (all
 * topics, so every refusal is still the input check's own), and every request passes the caller filter and the tenant
 * checks on its way. Nothing may change and every answer must be a JSON 4xx, as without tenants.
 */
class TenantsHostileInputTest extends HostileInputTest {
    @BeforeAll
    static void start() {
        startWith(
                "mykit.delay.tenants.default.topics=*",
                "mykit.delay.tenants.other.token=other-hostile-token",
                "mykit.delay.tenants.other.topics=other-*");
    }
}
