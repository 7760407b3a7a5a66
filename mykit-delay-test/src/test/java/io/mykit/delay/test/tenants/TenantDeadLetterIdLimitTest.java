package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A tenant with a token may name as many ids in a respawn or drop as anyone else, limits.max-batch-size: the gateway
 * looks each up in two forms, which must not count twice against the caller's limit.
 */
class TenantDeadLetterIdLimitTest {
    private static final String ORDERS = "orders-dl-limit-token";
    private static final int MAX_IDS = 4;

    @Gateway({
        "mykit.delay.limits.max-batch-size=" + MAX_IDS,
        "mykit.delay.tenants.orders.tokens=" + ORDERS,
        "mykit.delay.tenants.orders.topics=order-*"
    })
    static TestGateway gateway;

    private static TenantHttp http;

    @BeforeAll
    static void connect() {
        http = new TenantHttp(gateway.baseUrl());
    }

    @Test
    void a_tenant_names_up_to_the_limit_of_ids_and_no_more() {
        String topic = "order-dl-limit-" + UUID.randomUUID().toString().substring(0, 8);
        String dead = http.bury(ORDERS, topic);

        Answer tooMany = http.call(ORDERS, "POST", "/dead/" + topic + "/respawn", idsBody(dead, MAX_IDS));
        assertThat(tooMany.status()).as(tooMany.toString()).isEqualTo(400);
        assertThat(tooMany.json().path("field").asText()).isEqualTo("ids");
        assertThat(tooMany.json().path("message").asText()).contains("was " + (MAX_IDS + 1));

        Answer atTheLimit = http.call(ORDERS, "POST", "/dead/" + topic + "/respawn", idsBody(dead, MAX_IDS - 1));
        assertThat(atTheLimit.status()).as(atTheLimit.toString()).isEqualTo(200);
        assertThat(atTheLimit.data().path("respawned").asInt()).isEqualTo(1);
    }

    private static String idsBody(String dead, int others) {
        List<String> ids = new ArrayList<>(List.of(dead));
        for (int i = 0; i < others; i++) {
            ids.add("none-" + i);
        }
        return ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));
    }
}
