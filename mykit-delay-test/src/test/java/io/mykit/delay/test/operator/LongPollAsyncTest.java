package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.pull.PollAnswer;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Long-polls wait without a Tomcat thread: 2,000 of them on a gateway with 40 request threads, pushes answering while
 * they wait, every job delivered once to exactly one poller, and one poll more than pull.max-waiting-polls refused with
 * 429; a job reserved for a poll whose client went away goes back to its ready list uncounted.
 */
class LongPollAsyncTest {
    private static final int POLLERS = 2_000;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    // 40 threads for 2,000 waiting polls: a poll holding a thread would starve every push
    @Gateway({
        "server.tomcat.threads.max=40",
        "server.tomcat.max-connections=10000",
        "server.tomcat.accept-count=2000",
        "mykit.delay.pull.poll-interval=1s",
        "mykit.delay.pull.max-waiting-polls=" + POLLERS
    })
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String topic() {
        return "lp-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void two_thousand_waiting_polls_hold_no_thread_and_each_job_goes_to_exactly_one_of_them() throws Exception {
        String topic = topic();
        PullTarget pull = gateway.bean(PullTarget.class);
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30))
                .build();
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        for (int i = 0; i < POLLERS; i++) {
            HttpRequest request = HttpRequest.newBuilder(
                            URI.create(gateway.baseUrl() + "/get/" + topic + "?ttr=60000&timeout=30000"))
                    .timeout(Duration.ofSeconds(90))
                    .GET()
                    .build();
            polls.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> pull.waitingPolls() == POLLERS);

        // one more is refused at once, on the direct route and through Spring MVC (an extra parameter) alike
        for (String path : List.of(
                "/get/" + topic + "?timeout=1000",
                "/get/" + topic + "/batch?count=3&timeout=1000",
                "/get/" + topic + "/batch?count=3&timeout=1000&ttr=5000&x=1")) {
            Reply refused = client.get(path);
            assertThat(refused.status()).as(path + " -> " + refused).isEqualTo(429);
            assertThat(refused.json().path("success").asBoolean(true)).isFalse();
            assertThat(refused.json().path("code").asInt()).isEqualTo(429);
            assertThat(refused.json().path("message").asText()).contains("max-waiting-polls");
        }

        // pushes answer while all polls wait: each one is a job for one poller
        List<String> pushed = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Reply reply = client.push("{\"topic\":\"" + topic + "\",\"delay\":0,\"body\":\"" + i + "\"}");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            pushed.add(reply.data().asText());
        }
        for (int batch = 0; batch < 4; batch++) {
            String jobs = IntStream.range(0, (POLLERS - 20) / 4)
                    .mapToObj(i -> "{\"topic\":\"" + topic + "\",\"delay\":0}")
                    .collect(Collectors.joining(",", "[", "]"));
            Reply reply = client.pushBatch(jobs);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            reply.data().forEach(id -> pushed.add(id.asText()));
        }
        assertThat(pushed).hasSize(POLLERS);

        List<String> delivered = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> poll : polls) {
            HttpResponse<String> response = poll.get(90, TimeUnit.SECONDS);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode data = MAPPER.readTree(response.body()).path("data");
            assertThat(data.isObject())
                    .as("every poller gets a job: " + response.body())
                    .isTrue();
            delivered.add(data.path("id").asText());
        }
        assertThat(delivered)
                .as("each job to exactly one poller")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(pushed);
        assertThat(pull.waitingPolls()).isZero();
    }

    @Test
    void a_poll_that_times_out_answers_null_and_a_batch_poll_answers_an_empty_list() {
        String topic = topic();
        Reply single = client.get(topic, 30_000, 300);
        assertThat(single.status()).isEqualTo(200);
        assertThat(single.json().path("success").asBoolean()).isTrue();
        assertThat(single.json().has("data")).isTrue();
        assertThat(single.data().isNull()).as(single.toString()).isTrue();
        Reply batch = client.get("/get/" + topic + "/batch?count=5&ttr=30000&timeout=300");
        assertThat(batch.status()).isEqualTo(200);
        assertThat(batch.data().isArray() && batch.data().isEmpty())
                .as(batch.toString())
                .isTrue();
        Reply bad = client.get("/get/" + topic + "?timeout=-1");
        assertThat(bad.status())
                .as("bad input is still refused before anything waits")
                .isEqualTo(400);
    }

    @Test
    void a_job_reserved_for_a_poll_nobody_receives_goes_back_uncounted() throws Exception {
        String topic = topic();
        PullTarget pull = gateway.bean(PullTarget.class);
        String id =
                client.push("{\"topic\":\"" + topic + "\",\"delay\":0}").data().asText();
        // a poll whose client is gone by the time its job is reserved: the answer is refused
        List<String> offered = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> answered = new CompletableFuture<>();
        pull.reserveAsync(topic, 1, 60_000, 10_000, new PollAnswer() {
            @Override
            public boolean jobs(List<Job> jobs) {
                jobs.forEach(job -> offered.add(job.getId()));
                answered.complete(null);
                return false;
            }

            @Override
            public void failed(RuntimeException e) {
                answered.completeExceptionally(e);
            }
        });
        answered.get(10, TimeUnit.SECONDS);
        assertThat(offered).containsExactly(id);

        Reply next = client.get(topic, 60_000, 30_000);
        assertThat(next.data().path("id").asText())
                .as("given back to the ready list at once")
                .isEqualTo(id);
        assertThat(next.data().path("attempts").asInt())
                .as("the refused reservation did not count")
                .isZero();
        assertThat(client.finish(id).status()).isEqualTo(200);
    }

    /**
     * The servlet API tells a server nothing of a client that closes an idle async request: the gateway learns of it
     * only when the answer is written into the void. The job reserved for that poll is then an unacknowledged
     * reservation like any other: back when its ttr runs out, counted as a try, never lost.
     */
    @Test
    void a_job_reserved_for_a_poll_whose_connection_closed_comes_back_after_its_ttr() throws Exception {
        String topic = topic();
        PullTarget pull = gateway.bean(PullTarget.class);
        URI base = URI.create(gateway.baseUrl());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /get/" + topic + "?ttr=2000&timeout=20000 HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == 1);
        }
        String id =
                client.push("{\"topic\":\"" + topic + "\",\"delay\":0}").data().asText();
        // the closed poll is the oldest waiter: it takes the job, and its answer goes nowhere
        await().atMost(Duration.ofSeconds(30)).until(() -> pull.waitingPolls() == 0);
        Reply next = client.get(topic, 60_000, 20_000);
        assertThat(next.data().path("id").asText()).as(next.toString()).isEqualTo(id);
        assertThat(next.data().path("attempts").asInt())
                .as("the lost reservation counted as a try")
                .isEqualTo(1);
        assertThat(client.finish(id).status()).isEqualTo(200);
    }
}
