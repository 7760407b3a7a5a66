package io.mykit.delay.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FramesTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final Frames frames = new Frames(mapper);

    @Test
    void client_frames_are_written_as_the_stream_contract_spells_them() throws Exception {
        assertThat(json(frames.finish(List.of("a", "b"))))
                .isEqualTo(json("{\"type\":\"finish\",\"ids\":[\"a\",\"b\"]}"));
        assertThat(json(frames.release("a", 1000)))
                .isEqualTo(json("{\"type\":\"release\",\"id\":\"a\",\"delay\":1000}"));
        assertThat(json(frames.touch("a", 30000))).isEqualTo(json("{\"type\":\"touch\",\"id\":\"a\",\"ttr\":30000}"));
        assertThat(json(frames.bury("a", "bad body")))
                .isEqualTo(json("{\"type\":\"bury\",\"id\":\"a\",\"reason\":\"bad body\"}"));
        assertThat(json(frames.credit(4))).isEqualTo(json("{\"type\":\"credit\",\"add\":4}"));
        assertThat(json(frames.ping())).isEqualTo(json("{\"type\":\"ping\"}"));
    }

    @Test
    void a_burial_reason_is_kept_short_and_never_empty() throws Exception {
        String longReason = "x".repeat(1000);

        assertThat(json(frames.bury("a", longReason)).path("reason").asText()).hasSize(Frames.MAX_REASON);
        assertThat(json(frames.bury("a", " ")).path("reason").asText()).isEqualTo("no reason given");
    }

    @Test
    void a_jobs_frame_is_read_into_received_jobs() {
        ServerFrame frame =
                frames.decode("{\"type\":\"jobs\",\"jobs\":[{\"id\":\"j1\",\"topic\":\"t\",\"subtopic\":\"s\","
                        + "\"bizKey\":\"k\",\"body\":\"hello\",\"attempts\":2,\"tries\":5,\"createTime\":1000,"
                        + "\"delay\":500,\"priority\":7,\"ttl\":0,\"somethingNew\":{\"a\":1}}]}");

        assertThat(frame).isInstanceOf(ServerFrame.Jobs.class);
        assertThat(((ServerFrame.Jobs) frame).jobs())
                .containsExactly(new ReceivedJob(
                        "j1", "t", "s", "k", "hello", 2, 5, Instant.ofEpochMilli(1000), Instant.ofEpochMilli(1507)));
    }

    @Test
    void absent_optional_fields_of_a_job_are_null() {
        ServerFrame frame = frames.decode("{\"type\":\"jobs\",\"jobs\":[{\"id\":\"j1\",\"topic\":\"t\"}]}");

        ReceivedJob job = ((ServerFrame.Jobs) frame).jobs().get(0);
        assertThat(job.body()).isNull();
        assertThat(job.bizKey()).isNull();
        assertThat(job.attempts()).isZero();
    }

    @Test
    void an_ended_frame_lists_the_ids_the_refusals_and_the_dead() {
        ServerFrame frame = frames.decode("{\"type\":\"ended\",\"action\":\"release\",\"ids\":[\"a\",\"b\"],"
                + "\"refused\":{\"c\":\"not held\"},\"dead\":[\"b\"],\"extra\":true}");

        assertThat(frame)
                .isEqualTo(new ServerFrame.Ended("release", List.of("a", "b"), Map.of("c", "not held"), List.of("b")));
    }

    @Test
    void an_ended_frame_without_refusals_or_dead_has_empty_ones() {
        ServerFrame frame = frames.decode("{\"type\":\"ended\",\"action\":\"finish\",\"ids\":[\"a\"]}");

        assertThat(frame).isEqualTo(new ServerFrame.Ended("finish", List.of("a"), Map.of(), List.of()));
    }

    @Test
    void ping_pong_and_error_frames_are_read() {
        assertThat(frames.decode("{\"type\":\"ping\"}")).isEqualTo(new ServerFrame.Ping());
        assertThat(frames.decode("{\"type\":\"pong\",\"at\":1}")).isEqualTo(new ServerFrame.Pong());
        assertThat(frames.decode("{\"type\":\"error\",\"message\":\"bad frame\"}"))
                .isEqualTo(new ServerFrame.ErrorReport("bad frame"));
    }

    @Test
    void unknown_types_and_garbage_are_unknown_frames_not_failures() {
        assertThat(frames.decode("{\"type\":\"stats\",\"held\":3}")).isEqualTo(new ServerFrame.Unknown("stats"));
        assertThat(frames.decode("{\"held\":3}")).isEqualTo(new ServerFrame.Unknown(null));
        assertThat(frames.decode("not json")).isEqualTo(new ServerFrame.Unknown(null));
        assertThat(frames.decode("[1,2]")).isEqualTo(new ServerFrame.Unknown(null));
    }

    private JsonNode json(String text) throws Exception {
        return mapper.readTree(text);
    }
}
