package io.mykit.delay.test.tenants;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.HostileInputTest;
import io.mykit.delay.test.gateway.TestGateway;
import org.junit.jupiter.api.BeforeAll;

/**
 * The hostile-input suite with tenants configured: calls without a token are the tokenless default tenant's (all
 * topics, so every refusal is still the input check's own), and every request passes the caller filter and the tenant
 * checks on its way. Nothing may change and every answer must be a JSON 4xx, as without tenants.
 */
class TenantsHostileInputTest extends HostileInputTest {
    @Gateway({
        "mykit.delay.limits.max-body-bytes=" + MAX_BODY_BYTES,
        "mykit.delay.limits.max-request-bytes=" + MAX_REQUEST_BYTES,
        "mykit.delay.admin.token=" + ADMIN_TOKEN,
        "mykit.delay.tenants.default.topics=*"
    })
    private static TestGateway withTenants;

    @BeforeAll
    static void start() {
        startOn(withTenants);
    }
}
