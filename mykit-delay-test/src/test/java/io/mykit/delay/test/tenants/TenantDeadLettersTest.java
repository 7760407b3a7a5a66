package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dead-letter changes with tenants on: the tenant whose topic it is may respawn and drop its dead jobs with its own
 * token; another tenant may not, and a tenant's token is never an admin's, even from this host while no admin token is
 * set (the loopback rule).
 */
class TenantDeadLettersTest {
    private static final String ORDERS = "orders-dl-token";
    private static final String MAIL = "mail-dl-token";

    @Gateway({
        "mykit.delay.tenants.orders.tokens=" + ORDERS,
        "mykit.delay.tenants.orders.topics=order-*",
        "mykit.delay.tenants.mail.token=" + MAIL,
        "mykit.delay.tenants.mail.topics=mail-*"
    })
    static TestGateway gateway;

    private static TenantHttp http;

    @BeforeAll
    static void connect() {
        http = new TenantHttp(gateway.baseUrl());
    }

    @Test
    void the_owning_tenant_respawns_and_drops_its_dead_jobs_and_no_other_tenant_can() {
        String topic = "order-dl-" + UUID.randomUUID().toString().substring(0, 8);
        String first = http.bury(ORDERS, topic);
        String second = http.bury(ORDERS, topic);

        String respawnFirst = "{\"ids\":[\"" + first + "\"]}";
        Answer foreign = http.call(MAIL, "POST", "/dead/" + topic + "/respawn", respawnFirst);
        assertThat(foreign.status()).as(foreign.toString()).isEqualTo(403);
        Answer foreignDrop = http.call(MAIL, "DELETE", "/dead/" + topic, null);
        assertThat(foreignDrop.status()).as(foreignDrop.toString()).isEqualTo(403);
        assertThat(deadIds(topic)).as("nothing changed").contains(first, second);

        Answer respawned = http.call(ORDERS, "POST", "/dead/" + topic + "/respawn", respawnFirst);
        assertThat(respawned.status()).as(respawned.toString()).isEqualTo(200);
        assertThat(respawned.data().path("respawned").asInt()).isEqualTo(1);
        Answer dropped = http.call(ORDERS, "DELETE", "/dead/" + topic, null);
        assertThat(dropped.status()).as(dropped.toString()).isEqualTo(200);
        assertThat(dropped.data().path("dropped").asInt()).isEqualTo(1);
        assertThat(deadIds(topic)).isEqualTo("[]");
    }

    @Test
    void a_tenants_token_gets_no_admin_rights_from_this_host() {
        Answer clear = http.call(ORDERS, "GET", "/clearAll", null);
        assertThat(clear.status()).as(clear.toString()).isEqualTo(403);
        assertThat(clear.json().path("message").asText()).contains("tenant's token gives no admin rights");
        Answer cluster = http.call(ORDERS, "GET", "/cluster", null);
        assertThat(cluster.status()).as(cluster.toString()).isEqualTo(403);
        // the same host without a token keeps the admin rule it had
        assertThat(http.call(null, "GET", "/cluster", null).status()).isEqualTo(200);
    }

    private static String deadIds(String topic) {
        Answer listed = http.call(ORDERS, "GET", "/dead/" + topic, null);
        assertThat(listed.status()).as(listed.toString()).isEqualTo(200);
        return listed.data().toString();
    }
}
