package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.tenants.TenantHttp.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Without a max-polls of its own, a tenant holds at most its share of the node's long-polls (here 6 among 3 tenants:
 * 2), so the others still get theirs; a tenant's own max-polls wins over the share.
 */
class TenantPollShareTest {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final ExecutorService POLLERS = Executors.newFixedThreadPool(8);
    private static TestGateway gateway;
    private static TenantHttp http;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(
                "mykit.delay.pull.max-waiting-polls=6",
                // long-polls that outlast every step of the test on a loaded machine
                "mykit.delay.pull.max-timeout=60s",
                "mykit.delay.tenants.greedy.token=greedy-token",
                "mykit.delay.tenants.greedy.topics=greedy-*",
                "mykit.delay.tenants.modest.token=modest-token",
                "mykit.delay.tenants.modest.topics=modest-*",
                "mykit.delay.tenants.own.token=own-token",
                "mykit.delay.tenants.own.topics=own-*",
                "mykit.delay.tenants.own.max-polls=3");
        http = new TenantHttp(gateway.baseUrl());
    }

    @AfterAll
    static void stop() {
        POLLERS.shutdownNow();
        if (gateway != null) {
            gateway.close();
        }
    }

    /** A long-poll that lasts longer than any step of a test on a loaded machine; the test ends it with a job. */
    private static CompletableFuture<Answer> longPoll(String tenant) {
        return CompletableFuture.supplyAsync(
                () -> http.call(tenant + "-token", "GET", "/get/" + tenant + "-" + RUN + "?timeout=45000", null),
                POLLERS);
    }

    /** Ends {@code polls} waiting long-polls of a tenant by pushing each a job due now. */
    private static void answer(String tenant, List<CompletableFuture<Answer>> polls) throws Exception {
        for (int i = 0; i < polls.size(); i++) {
            Answer pushed = http.call(
                    tenant + "-token", "POST", "/push", "{\"topic\":\"" + tenant + "-" + RUN + "\",\"delay\":0}");
            assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        }
        for (CompletableFuture<Answer> poll : polls) {
            Answer answer = poll.get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            assertThat(answer.body()).contains(tenant + "-" + RUN);
        }
    }

    @Test
    void a_tenant_without_its_own_limit_holds_its_share_and_leaves_the_rest_to_the_others() throws Exception {
        PullTarget pull = gateway.bean(PullTarget.class);
        List<CompletableFuture<Answer>> greedy = List.of(longPoll("greedy"), longPoll("greedy"));
        await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == 2);

        Answer third = longPoll("greedy").get(30, TimeUnit.SECONDS);
        assertThat(third.status()).as(third.toString()).isEqualTo(429);
        assertThat(third.body()).contains("greedy holds 2 long-polls");

        List<CompletableFuture<Answer>> modest = List.of(longPoll("modest"), longPoll("modest"));
        await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == 4);

        answer("greedy", greedy);
        answer("modest", modest);
        List<CompletableFuture<Answer>> own = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            own.add(longPoll("own"));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == 3);
        answer("own", own);
    }
}
