package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The original's /clearAll journaled every pending job as cancelled; this gateway's wipes Redis and keeps the journal
 * (a restore brings every job back). {@code /clearAll?cancel=true} gives the original's meaning: what it cancels stays
 * cancelled through any restore, and a job already handed over is refused, not silently dropped.
 */
class ClearAllCancelTest {
    private static final String TOKEN = "clear-t0k3n";

    @Test
    void clear_all_with_cancel_journals_every_waiting_job_as_cancelled_and_no_restore_brings_one_back(
            @Gateway("mykit.delay.admin.token=" + TOKEN) TestGateway gateway) throws Exception {
        GatewayClient client = gateway.client();
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiting.add(client.push("{\"topic\":\"clear-wait\",\"delay\":2500,\"body\":\"w" + i + "\"}")
                    .data()
                    .asText());
        }
        String handedOver = client.push("{\"topic\":\"clear-taken\",\"delay\":0,\"body\":\"t\"}")
                .data()
                .asText();
        assertThat(client.get("clear-taken", 60_000, 30_000).data().path("id").asText())
                .isEqualTo(handedOver);

        JsonNode cleared = admin(gateway, "/clearAll?cancel=true");
        JsonNode report = cleared.path("data");
        assertThat(report.path("cancelled").asLong()).isEqualTo(3);
        assertThat(report.path("refused").has(handedOver))
                .as("the reserved job refused: %s", report)
                .isTrue();
        for (String id : waiting) {
            // each waiting job's cancel is journaled Delete
            assertThat(gateway.journalStatuses(id)).as("log of %s", id).contains(JobStatus.Delete.code());
            assertThat(client.lookup(id).data().path("status").asText())
                    .as("journal status of %s", id)
                    .isEqualTo(JobStatus.Delete.name());
        }

        admin(gateway, "/reStore?expire=true");
        // past the cancelled jobs' due time: a restore that brought one back would hand it over now
        GatewayClient.Reply after = client.get("clear-wait", 30_000, 5_000);
        assertThat(after.data().hasNonNull("id"))
                .as("a cancelled job delivered after the restore: %s", after)
                .isFalse();
    }

    private static JsonNode admin(TestGateway gateway, String pathAndQuery) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(gateway.baseUrl() + pathAndQuery))
                                .header("X-Admin-Token", TOKEN)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("%s: %s", pathAndQuery, response.body())
                .isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }
}
