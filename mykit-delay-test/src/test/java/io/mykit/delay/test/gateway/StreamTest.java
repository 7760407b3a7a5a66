package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.support.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /stream: jobs written as they fall due, acknowledged over the socket, given back when the stream ends. */
class StreamTest {
    @Gateway({"mykit.delay.pull.poll-interval=100ms", "mykit.delay.limits.max-batch-size=5"})
    private static TestGateway gateway;

    private static GatewayClient client;

    @BeforeAll
    static void start() {
        client = gateway.client();
    }

    private static String topic() {
        return "s-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Pushes {@code count} due jobs, five per batch (the class's max-batch-size). */
    private static List<String> pushDue(String topic, int count, int tries) {
        List<String> ids = new ArrayList<>();
        for (int from = 0; from < count; from += 5) {
            String jobs = IntStream.range(from, Math.min(count, from + 5))
                    .mapToObj(i ->
                            "{\"topic\":\"" + topic + "\",\"delay\":0,\"tries\":" + tries + ",\"body\":\"" + i + "\"}")
                    .collect(Collectors.joining(",", "[", "]"));
            Reply pushed = client.pushBatch(jobs);
            assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
            pushed.data().forEach(id -> ids.add(id.asText()));
        }
        return ids;
    }

    private static String finish(String... ids) {
        return "{\"type\":\"finish\",\"ids\":["
                + java.util.Arrays.stream(ids).map(id -> "\"" + id + "\"").collect(Collectors.joining(","))
                + "]}";
    }

    /** Reserves every ready job of the topic over HTTP until {@code ids} all came; answers them by id. */
    private static Map<String, JsonNode> pullAll(String topic, List<String> ids) {
        Map<String, JsonNode> got = new HashMap<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Reply reply = client.get("/get/" + topic + "/batch?count=5&ttr=30000&timeout=500");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            reply.data().forEach(job -> got.put(job.path("id").asText(), job));
            return got.keySet().containsAll(ids);
        });
        return got;
    }

    @Test
    void a_streamed_job_finished_over_the_socket_is_journaled_finish_and_never_delivered_again() throws Exception {
        String topic = topic();
        try (StreamClient stream = StreamClient.open(gateway.baseUrl(), "topics=" + topic + "&credit=10")) {
            String id = pushDue(topic, 1, 0).get(0);

            JsonNode jobs = stream.next("jobs");
            assertThat(jobs.path("jobs")).hasSize(1);
            JsonNode job = jobs.path("jobs").get(0);
            assertThat(job.path("id").asText()).isEqualTo(id);
            assertThat(job.path("topic").asText()).isEqualTo(topic);
            assertThat(job.path("body").asText()).isEqualTo("0");

            stream.send(finish(id));
            JsonNode ended = stream.next("ended");
            assertThat(ended.path("action").asText()).isEqualTo("finish");
            assertThat(ended.path("ids")).extracting(JsonNode::asText).containsExactly(id);
            assertThat(ended.path("refused").size()).isZero();
            assertThat(gateway.journalStatuses(id)).contains(JobStatus.Finish.code());

            Reply again = client.get("/get/" + topic + "?ttr=30000&timeout=300");
            assertThat(again.data().isNull()).as(again.toString()).isTrue();
            stream.send("{\"type\":\"ping\"}");
            assertThat(stream.next().path("type").asText())
                    .as("nothing but the pong")
                    .isEqualTo("pong");
        }
    }

    @Test
    void a_stream_holds_at_most_its_credit_and_takes_more_as_jobs_end_or_credit_is_added() throws Exception {
        String topic = topic();
        List<String> pushed = pushDue(topic, 10, 0);
        try (StreamClient stream = StreamClient.open(gateway.baseUrl(), "topics=" + topic + "&credit=3")) {
            List<String> held = stream.jobIds(3);
            assertThat(held).hasSize(3);
            assertThat(gateway.bean(io.micrometer.core.instrument.MeterRegistry.class)
                            .get("mykit.delay.streams.open")
                            .gauge()
                            .value())
                    .isPositive();
            // held up to its credit: a ping's pong comes, and no jobs frame before it
            stream.send("{\"type\":\"ping\"}");
            assertThat(stream.next().path("type").asText()).isEqualTo("pong");

            stream.send(finish(held.get(0)));
            assertThat(stream.next("ended").path("ids")).hasSize(1);
            List<String> more = stream.jobIds(1);
            assertThat(more).hasSize(1).doesNotContainAnyElementsOf(held);
            stream.send("{\"type\":\"ping\"}");
            assertThat(stream.next().path("type").asText()).isEqualTo("pong");

            stream.send("{\"type\":\"credit\",\"add\":6}");
            List<String> rest = stream.jobIds(6);
            Set<String> all = new HashSet<>(held);
            all.addAll(more);
            all.addAll(rest);
            assertThat(all).containsExactlyInAnyOrderElementsOf(pushed);
        }
    }

    @Test
    void held_jobs_go_back_at_once_without_a_try_when_the_stream_closes_cleanly() {
        String topic = topic();
        List<String> pushed = pushDue(topic, 4, 0);
        StreamClient stream = StreamClient.open(gateway.baseUrl(), "topics=" + topic + "&credit=10");
        List<String> held = stream.jobIds(4);
        assertThat(held).containsExactlyInAnyOrderElementsOf(pushed);
        stream.close();

        Map<String, JsonNode> back = pullAll(topic, pushed);
        back.values()
                .forEach(job -> assertThat(job.path("attempts").asInt())
                        .as("the stream's reservation was not counted: %s", job)
                        .isZero());
    }

    @Test
    void held_jobs_go_back_at_once_when_the_connection_breaks() throws Exception {
        String topic = topic();
        List<String> pushed = pushDue(topic, 3, 0);
        int port =
                Integer.parseInt(gateway.baseUrl().substring(gateway.baseUrl().lastIndexOf(':') + 1));
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", port)) {
            StreamClient stream =
                    StreamClient.open("http://127.0.0.1:" + proxy.port(), "topics=" + topic + "&credit=10");
            assertThat(stream.jobIds(3)).containsExactlyInAnyOrderElementsOf(pushed);
            proxy.cut();

            Map<String, JsonNode> back = pullAll(topic, pushed);
            back.values()
                    .forEach(job -> assertThat(job.path("attempts").asInt())
                            .as("%s", job)
                            .isZero());
        }
    }

    @Test
    void ids_the_stream_does_not_hold_are_refused_by_id_and_bad_frames_answered_with_an_error() throws Exception {
        String topic = topic();
        String other = topic();
        String foreign = pushDue(other, 1, 0).get(0);
        // reserved by an HTTP puller: a job the stream does not hold, though it is reserved
        pullAll(other, List.of(foreign));
        try (StreamClient stream = StreamClient.open(gateway.baseUrl(), "topics=" + topic + "&credit=10")) {
            String id = pushDue(topic, 1, 0).get(0);
            assertThat(stream.jobIds(1)).containsExactly(id);

            stream.send(finish(id, "no-such-job", foreign));
            JsonNode ended = stream.next("ended");
            assertThat(ended.path("ids")).extracting(JsonNode::asText).containsExactly(id);
            assertThat(ended.path("refused").path("no-such-job").asText()).isEqualTo("not held by this stream");
            assertThat(ended.path("refused").path(foreign).asText()).isEqualTo("not held by this stream");
            assertThat(gateway.journalStatuses(foreign)).doesNotContain(JobStatus.Finish.code());

            stream.send("{\"type\":\"release\",\"id\":\"" + foreign + "\"}");
            JsonNode refused = stream.next("ended");
            assertThat(refused.path("action").asText()).isEqualTo("release");
            assertThat(refused.path("ids")).isEmpty();
            assertThat(refused.path("refused").path(foreign).asText()).isEqualTo("not held by this stream");

            for (String bad : List.of(
                    "{not json",
                    "[1,2]",
                    "{\"type\":\"dance\"}",
                    "{\"type\":\"finish\"}",
                    "{\"type\":\"release\"}",
                    "{\"type\":\"credit\",\"add\":0}",
                    finish("a", "b", "c", "d", "e", "f"))) {
                stream.send(bad);
                assertThat(stream.next().path("type").asText()).as(bad).isEqualTo("error");
            }
            stream.send("{\"type\":\"ping\"}");
            assertThat(stream.next().path("type").asText()).isEqualTo("pong");
        }
    }

    @Test
    void release_counts_a_try_and_buries_a_job_out_of_tries_touch_extends_and_bury_buries() throws Exception {
        String topic = topic();
        try (StreamClient stream = StreamClient.open(gateway.baseUrl(), "topics=" + topic + "&credit=10")) {
            List<String> pushed = pushDue(topic, 3, 2);
            List<String> held = stream.jobIds(3);
            assertThat(held).containsExactlyInAnyOrderElementsOf(pushed);
            String released = held.get(0);
            String touched = held.get(1);
            String buried = held.get(2);

            stream.send("{\"type\":\"release\",\"id\":\"" + released + "\",\"delay\":0}");
            // due again at once: its next delivery may be written before the release's answer
            Map<String, JsonNode> answered = stream.nextOfEach("ended", "jobs");
            JsonNode first = answered.get("ended");
            assertThat(first.path("ids")).extracting(JsonNode::asText).containsExactly(released);
            assertThat(first.path("dead")).isEmpty();
            JsonNode again = answered.get("jobs").path("jobs").get(0);
            assertThat(again.path("id").asText()).isEqualTo(released);
            assertThat(again.path("attempts").asInt()).isEqualTo(1);
            stream.send("{\"type\":\"release\",\"id\":\"" + released + "\"}");
            JsonNode second = stream.next("ended");
            assertThat(second.path("dead")).extracting(JsonNode::asText).containsExactly(released);
            assertThat(gateway.journalStatuses(released)).contains(JobStatus.Dead.code());

            stream.send("{\"type\":\"touch\",\"id\":\"" + touched + "\",\"ttr\":60000}");
            JsonNode touchedAnswer = stream.next("ended");
            assertThat(touchedAnswer.path("action").asText()).isEqualTo("touch");
            assertThat(touchedAnswer.path("ids")).extracting(JsonNode::asText).containsExactly(touched);
            // still held after a touch: it can be finished through the stream
            stream.send(finish(touched));
            assertThat(stream.next("ended").path("ids"))
                    .extracting(JsonNode::asText)
                    .containsExactly(touched);

            stream.send("{\"type\":\"bury\",\"id\":\"" + buried + "\",\"reason\":\"poison message\"}");
            JsonNode buriedAnswer = stream.next("ended");
            assertThat(buriedAnswer.path("action").asText()).isEqualTo("bury");
            assertThat(buriedAnswer.path("ids")).extracting(JsonNode::asText).containsExactly(buried);
            assertThat(gateway.journalStatuses(buried)).contains(JobStatus.Dead.code());
            Reply dead = client.get("/dead/" + topic);
            assertThat(dead.toString()).contains(buried);
        }
    }

    @Test
    void a_silent_consumer_is_closed_4408_and_its_jobs_go_back(
            @Gateway({"mykit.delay.stream.idle-timeout=600ms", "mykit.delay.stream.heartbeat=200ms"}) TestGateway own) {
        String topic = topic();
        Reply pushed = own.client().push("{\"topic\":\"" + topic + "\",\"delay\":0}");
        String id = pushed.data().asText();
        StreamClient stream = StreamClient.open(own.baseUrl(), "topics=" + topic);
        assertThat(stream.jobIds(1)).containsExactly(id);

        assertThat(stream.closeCode()).isEqualTo(4408);
        assertThat(stream.pings()).as("heartbeats while it was silent").isPositive();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !own.client()
                        .get("/get/" + topic + "?ttr=30000&timeout=500")
                        .data()
                        .isNull());
    }

    @Test
    void a_consumer_that_does_not_read_is_closed_after_the_send_timeout_and_its_jobs_go_back(
            @Gateway({"mykit.delay.stream.send-timeout=1s", "mykit.delay.stream.idle-timeout=10m"}) TestGateway own) {
        String topic = topic();
        String body = "x".repeat(60_000);
        List<String> pushed = new ArrayList<>();
        for (int batch = 0; batch < 10; batch++) {
            String jobs = IntStream.range(0, 20)
                    .mapToObj(i -> "{\"topic\":\"" + topic + "\",\"delay\":0,\"body\":\"" + body + "\"}")
                    .collect(Collectors.joining(",", "[", "]"));
            own.client().pushBatch(jobs).data().forEach(id -> pushed.add(id.asText()));
        }
        assertThat(pushed).hasSize(200);
        // 12 MB of frames the consumer never asks for: the socket's buffers fill, and the gateway's send stalls
        StreamClient.open(own.baseUrl(), "topics=" + topic + "&credit=200&ttr=600000", Map.of(), false);
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        own.bean(io.mykit.delay.controller.StreamHandler.class).openStreams() == 1);

        Set<String> back = new HashSet<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Reply reply = own.client().get("/get/" + topic + "/batch?count=100&ttr=30000&timeout=500");
            reply.data().forEach(job -> back.add(job.path("id").asText()));
            return back.containsAll(pushed);
        });
        assertThat(own.bean(io.mykit.delay.controller.StreamHandler.class).openStreams())
                .isZero();
    }

    @Test
    void a_frame_past_max_frame_bytes_closes_the_stream_1009_and_its_jobs_go_back() {
        String topic = topic();
        List<String> pushed = pushDue(topic, 2, 0);
        StreamClient stream = StreamClient.open(gateway.baseUrl(), "topics=" + topic + "&ttr=600000");
        assertThat(stream.jobIds(2)).containsExactlyInAnyOrderElementsOf(pushed);

        stream.send("{\"type\":\"ping\",\"pad\":\"" + "x".repeat(70_000) + "\"}");
        assertThat(stream.closeCode()).isEqualTo(1009);
        pullAll(topic, pushed);
    }

    @Test
    void a_held_job_whose_ttr_ran_out_frees_its_credit() {
        String topic = topic();
        List<String> pushed = pushDue(topic, 2, 0);
        try (StreamClient stream = StreamClient.open(gateway.baseUrl(), "topics=" + topic + "&credit=1&ttr=300")) {
            String first = stream.jobIds(1).get(0);
            // never finished: once its ttr (and the grace) ran out the stream takes another job, or this one again
            String next = stream.jobIds(1).get(0);
            assertThat(pushed).contains(first, next);
        }
    }
}
