package io.mykit.delay.test.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.config.LimitsProperties;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What README.md and docs/api.md quote of the gateway's answers, held against a running gateway: the batch pull's limit
 * on {@code count} and the refusals a waiting job gets.
 */
class ApiDocsTest {
    /** A job pushed with this delay is still waiting when the test asks about it. */
    private static final int HOUR_MS = 3_600_000;

    @Gateway
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String api() {
        return DocPages.text(DocPages.root().resolve("docs/api.md"));
    }

    /** The number the page gives after {@code limits.max-batch-size}, in the form {@code pattern} captures. */
    private static int documented(String page, Pattern pattern) {
        Matcher found = pattern.matcher(DocPages.text(DocPages.root().resolve(page)));
        assertThat(found.find()).as(page + " states the limit as " + pattern).isTrue();
        return Integer.parseInt(found.group(1).replace(",", ""));
    }

    @Test
    void the_documented_count_limit_is_the_setting_and_what_the_gateway_enforces() {
        int api = documented(
                "docs/api.md", Pattern.compile("up to `count` \\(1\\.\\.`limits\\.max-batch-size`, ([0-9,]+)"));
        int readme =
                documented("README.md", Pattern.compile("up to limits\\.max-batch-size, ([0-9,]+)\\).*pull `count`"));
        int setting = new LimitsProperties().getMaxBatchSize();
        assertThat(api).as("docs/api.md").isEqualTo(setting);
        assertThat(readme).as("README.md").isEqualTo(setting);

        String topic = "docs-" + UUID.randomUUID().toString().substring(0, 8);
        Reply most = client.get("/get/" + topic + "/batch?count=" + setting + "&ttr=30000&timeout=0");
        assertThat(most.status()).as(most.toString()).isEqualTo(200);
        Reply beyond = client.get("/get/" + topic + "/batch?count=" + (setting + 1) + "&ttr=30000&timeout=0");
        assertThat(beyond.status()).as(beyond.toString()).isEqualTo(400);
        assertThat(beyond.toString()).contains("count");
    }

    @Test
    void the_refusals_quoted_for_a_waiting_job_are_the_gateway_s() {
        String topic = "docs-" + UUID.randomUUID().toString().substring(0, 8);
        String id = client.push("{\"topic\":\"" + topic + "\",\"delay\":" + HOUR_MS + "}")
                .data()
                .asText();
        // the journal reads WaitPut until the job is in Redis: the docs quote the waiting job's answer
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        client.get("/jobs/" + id).data().path("status").asText().equals("Delay"));

        Reply finished = client.raw("POST", "/finish/batch", "application/json", "[\"" + id + "\"]");
        String batchRefusal = finished.data().path("refused").path(id).asText();
        assertThat(batchRefusal).as(finished.toString()).isNotEmpty();
        assertThat(api())
                .as("the /finish/batch example")
                .contains("\"refused\":{\"<jobId2>\":\"" + batchRefusal + "\"}");

        Reply touched = client.raw("POST", "/touch?jobId=" + id + "&ttr=60000", null, null);
        assertThat(touched.status()).as(touched.toString()).isEqualTo(409);
        String touchRefusal = touched.json().path("message").asText();
        assertThat(touchRefusal).as(touched.toString()).contains(id);
        assertThat(api()).as("the stream's ended example").contains("`" + touchRefusal.replace(id, "<id>") + "`");
    }
}
