package io.mykit.delay.test.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mykit.delay.client.DelayClient;
import io.mykit.delay.client.DelayClientException;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A push refused with 429 is retried as its Retry-After asks, and reported with status and message at the end. */
class DelayClientRetryTest {
    private static final String TOKEN = "retry-client-token";
    private static final Duration AN_HOUR = Duration.ofHours(1);

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static DelayClient client(TestGateway gateway, int maxRetries) {
        return DelayClient.builder()
                .baseUri(gateway.baseUrl())
                .token(TOKEN)
                .maxRetries(maxRetries)
                // without Retry-After the retries would follow each other within milliseconds
                .retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
                .build();
    }

    @Test
    void a_push_past_the_tenants_pending_jobs_is_retried_after_retry_after_then_reported(
            @Gateway({
                        "mykit.delay.tenants.shop.token=" + TOKEN,
                        "mykit.delay.tenants.shop.topics=shop-*",
                        "mykit.delay.tenants.shop.max-pending=1"
                    })
                    TestGateway gateway) {
        String topic = unique("shop");
        try (DelayClient client = client(gateway, 2)) {
            client.push(DelayJob.builder(topic).delay(AN_HOUR).build());

            long start = System.nanoTime();
            DelayClientException refused = catchThrowableOfType(
                    DelayClientException.class,
                    () -> client.push(DelayJob.builder(topic).delay(AN_HOUR).build()));
            Duration spent = Duration.ofNanos(System.nanoTime() - start);

            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.gatewayMessage()).contains("pending jobs");
            // two waits of Retry-After (at least 1 s each) before the last try: a lower bound no slow machine breaks
            assertThat(spent).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        }
    }

    @Test
    void a_push_refused_for_now_goes_through_once_there_is_room(
            @Gateway({
                        "mykit.delay.tenants.shop.token=" + TOKEN,
                        "mykit.delay.tenants.shop.topics=shop-*",
                        "mykit.delay.tenants.shop.max-pending=1"
                    })
                    TestGateway gateway)
            throws Exception {
        String topic = unique("shop");
        try (DelayClient client = client(gateway, 60)) {
            String first = client.push(DelayJob.builder(topic).delay(AN_HOUR).build());
            DelayJob second = DelayJob.builder(topic).delay(AN_HOUR).build();

            CompletableFuture<String> pushed = CompletableFuture.supplyAsync(() -> client.push(second));
            client.cancel(first);

            assertThat(pushed.get(120, TimeUnit.SECONDS)).isEqualTo(second.id());
            assertThat(client.lookup(second.id())).isPresent();
        }
    }
}
