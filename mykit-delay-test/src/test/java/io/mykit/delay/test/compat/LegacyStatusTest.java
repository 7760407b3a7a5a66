package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import org.junit.jupiter.api.Test;

/**
 * Clients written against the original check only the envelope: with mykit.delay.http.legacy-status=true every answer
 * is HTTP 200, success says whether it worked and code carries the status a default gateway sends on the wire.
 */
class LegacyStatusTest {

    @Test
    void every_answer_is_200_with_the_real_status_in_code_and_the_default_keeps_real_status_codes(
            @Gateway({"mykit.delay.http.legacy-status=true", "mykit.delay.admin.token=t0k3n"}) TestGateway legacy,
            @Gateway("mykit.delay.admin.token=t0k3n") TestGateway standard)
            throws Exception {
        String pushed = "{\"topic\":\"legacy\",\"delay\":60000,\"body\":\"x\"}";
        assertAnswers(legacy.client(), standard.client(), "POST", "/push", pushed, 200, true);
        // bad input: a misspelt field
        assertAnswers(
                legacy.client(), standard.client(), "POST", "/push", "{\"topic\":\"legacy\",\"dealy\":1}", 400, false);
        // cancel of an unknown job, then of one already handed over (the original answered success)
        assertAnswers(legacy.client(), standard.client(), "GET", "/delete?jobId=no-such-job", null, 404, false);
        String id = legacy.client()
                .push("{\"topic\":\"legacy-due\",\"delay\":0,\"body\":\"x\"}")
                .data()
                .asText();
        String otherId = standard.client()
                .push("{\"topic\":\"legacy-due\",\"delay\":0,\"body\":\"x\"}")
                .data()
                .asText();
        assertThat(legacy.client()
                        .get("legacy-due", 30_000, 30_000)
                        .data()
                        .path("id")
                        .asText())
                .isEqualTo(id);
        assertThat(standard.client()
                        .get("legacy-due", 30_000, 30_000)
                        .data()
                        .path("id")
                        .asText())
                .isEqualTo(otherId);
        GatewayClient.Reply legacyCancel = legacy.client().delete(id);
        GatewayClient.Reply standardCancel = standard.client().delete(otherId);
        assertThat(standardCancel.status()).isEqualTo(409);
        assertThat(legacyCancel.status()).isEqualTo(200);
        assertThat(legacyCancel.success()).isFalse();
        assertThat(legacyCancel.json().path("code").asInt()).isEqualTo(409);
        // an admin call without its token; a path nothing serves; a wrong method
        assertAnswers(legacy.client(), standard.client(), "GET", "/clearAll", null, 401, false);
        assertAnswers(legacy.client(), standard.client(), "GET", "/no/such/path", null, 404, false);
        assertAnswers(legacy.client(), standard.client(), "DELETE", "/push", null, 405, false);
    }

    private static void assertAnswers(
            GatewayClient legacy,
            GatewayClient standard,
            String method,
            String path,
            String body,
            int status,
            boolean success) {
        String type = body == null ? null : "application/json";
        GatewayClient.Reply real = standard.raw(method, path, type, body);
        assertThat(real.status())
                .as("default gateway: %s %s -> %s", method, path, real)
                .isEqualTo(status);
        GatewayClient.Reply old = legacy.raw(method, path, type, body);
        assertThat(old.status())
                .as("legacy gateway: %s %s -> %s", method, path, old)
                .isEqualTo(200);
        assertThat(old.success()).as("success of %s %s", method, path).isEqualTo(success);
        assertThat(old.json().path("code").asInt())
                .as("code of %s %s -> %s", method, path, old)
                .isEqualTo(status);
    }
}
