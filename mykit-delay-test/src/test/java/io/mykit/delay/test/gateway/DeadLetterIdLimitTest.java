package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A respawn or drop names at most limits.max-batch-size ids: more is a 400 that changes nothing. */
class DeadLetterIdLimitTest {
    private static final String TOPIC = "dl-" + UUID.randomUUID().toString().substring(0, 8);
    private static final int MAX_IDS = 5;

    @Gateway({
        "mykit.delay.limits.max-batch-size=" + MAX_IDS,
        "mykit.delay.timer.sweep-interval=100ms",
        "mykit.delay.pull.poll-interval=50ms"
    })
    private static TestGateway gateway;

    private static String deadId;

    @BeforeAll
    static void oneDeadJob() {
        GatewayClient client = gateway.client();
        Reply pushed = client.push("{\"topic\":\"" + TOPIC + "\",\"tries\":1}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        deadId = pushed.data().asText();
        assertThat(client.get(TOPIC, 200, 30_000).data().path("id").asText()).isEqualTo(deadId);
        // the reservation runs out unfinished: with one try the job is buried
        await().atMost(Duration.ofSeconds(15)).until(() -> deadIds().contains(deadId));
    }

    private static List<String> deadIds() {
        List<String> ids = new ArrayList<>();
        gateway.client()
                .get("/dead/" + TOPIC)
                .data()
                .forEach(job -> ids.add(job.path("id").asText()));
        return ids;
    }

    /** The dead job's id and {@code others} unknown ones, as a respawn or drop body. */
    private static String idsBody(int others) {
        List<String> ids = new ArrayList<>(List.of(deadId));
        for (int i = 0; i < others; i++) {
            ids.add("none-" + i);
        }
        return ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));
    }

    @Test
    void more_ids_than_the_limit_are_refused_with_400_and_leave_the_dead_letters_alone() {
        String tooMany = idsBody(MAX_IDS);
        Reply respawn = gateway.client().raw("POST", "/dead/" + TOPIC + "/respawn", "application/json", tooMany);
        assertThat(respawn.status()).as(respawn.toString()).isEqualTo(400);
        assertThat(respawn.json().path("field").asText()).isEqualTo("ids");
        assertThat(respawn.json().path("message").asText()).contains("at most " + MAX_IDS);
        Reply drop = gateway.client().raw("DELETE", "/dead/" + TOPIC, "application/json", tooMany);
        assertThat(drop.status()).as(drop.toString()).isEqualTo(400);
        assertThat(drop.json().path("field").asText()).isEqualTo("ids");
        assertThat(deadIds()).containsExactly(deadId);

        Reply atTheLimit = gateway.client().raw("DELETE", "/dead/" + TOPIC, "application/json", idsBody(MAX_IDS - 1));
        assertThat(atTheLimit.status()).as(atTheLimit.toString()).isEqualTo(200);
        assertThat(atTheLimit.data().path("dropped").asInt()).isEqualTo(1);
        assertThat(deadIds()).isEmpty();
    }
}
