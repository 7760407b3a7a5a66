package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import org.junit.jupiter.api.Test;

/** /reStore without parameters restores past-due jobs too, as the original's default expire=true did. */
class RestoreDefaultTest {

    @Test
    void a_restore_without_parameters_brings_back_a_job_whose_due_time_passed_while_redis_lacked_it(
            @Gateway TestGateway gateway) throws Exception {
        GatewayClient client = gateway.client();
        String id = client.push("{\"topic\":\"restore-default\",\"delay\":300,\"body\":\"late\"}")
                .data()
                .asText();
        assertThat(client.get("/clearAll").status()).isEqualTo(200);
        Thread.sleep(800);
        GatewayClient.Reply restored = client.get("/reStore");
        assertThat(restored.status()).as("restore: %s", restored).isEqualTo(200);
        assertThat(restored.data().path("restored").asLong())
                .as("restore: %s", restored)
                .isEqualTo(1);
        assertThat(client.get("restore-default", 30_000, 30_000)
                        .data()
                        .path("id")
                        .asText())
                .isEqualTo(id);
    }
}
