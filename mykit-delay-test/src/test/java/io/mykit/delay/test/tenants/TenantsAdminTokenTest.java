package io.mykit.delay.test.tenants;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.recovery.AdminTokenTest;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every spelling of every admin route with tenants configured (the tokenless default tenant on every topic): the admin
 * routes keep their own rule (the admin token), whatever the caller filter resolved.
 */
class TenantsAdminTokenTest extends AdminTokenTest {
    @Gateway({"mykit.delay.admin.token=" + TOKEN, "mykit.delay.tenants.default.topics=*"})
    private static TestGateway withTenants;

    @BeforeAll
    static void start() {
        startOn(withTenants);
    }
}
