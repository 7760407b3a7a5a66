package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A long-poll opened with a token that a reload of the tenants file takes out ends there and never gets a job. */
class TenantPollRevocationTest {
    @TempDir
    Path dir;

    @Test
    void a_long_poll_of_a_revoked_token_ends_without_a_job_and_the_job_waits_for_a_valid_token() throws Exception {
        String topic = "rev-" + UUID.randomUUID().toString().substring(0, 8);
        Path file = dir.resolve("tenants.properties");
        Files.writeString(file, """
                mykit.delay.tenants.orders.tokens=old-token,new-token
                mykit.delay.tenants.orders.topics=rev-*
                """);
        try (TestGateway gateway =
                TestGateway.start("mykit.delay.tenants-file=" + file, "mykit.delay.pull.max-timeout=60s")) {
            TenantHttp http = new TenantHttp(gateway.baseUrl());
            PullTarget pull = gateway.bean(PullTarget.class);
            CompletableFuture<Answer> revoked = CompletableFuture.supplyAsync(
                    () -> http.call("old-token", "GET", "/get/" + topic + "?timeout=45000", null));
            await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == 1);

            Files.writeString(file, """
                    mykit.delay.tenants.orders.tokens=new-token
                    mykit.delay.tenants.orders.topics=rev-*
                    """);
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> http.call("old-token", "GET", "/stats", null).status() == 401);
            String id = http.push("new-token", topic, "k", 0);

            Answer ended = revoked.get(10, TimeUnit.SECONDS);
            assertThat(ended.status()).as(ended.toString()).isEqualTo(401);
            assertThat(ended.body()).doesNotContain(id);
            Answer valid = http.call("new-token", "GET", "/get/" + topic + "?timeout=10000", null);
            assertThat(valid.status()).as(valid.toString()).isEqualTo(200);
            assertThat(valid.data().path("id").asText()).isEqualTo(id);
        }
    }
}
