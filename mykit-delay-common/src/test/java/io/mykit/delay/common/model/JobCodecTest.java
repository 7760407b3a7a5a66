package io.mykit.delay.common.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JobCodecTest {
    private static final long CREATED = 1_764_000_000_000L;

    @Test
    void a_compact_record_round_trips_every_field_and_does_not_repeat_the_id() {
        Job job = new Job("order-42", "orders", "paid", "biz-7", 60_000, 5, 3_600_000, 3, "héllo\n\"x\"", CREATED);
        job.setAttempts(2);

        String record = JobCodec.encode(job);

        assertThat(record).startsWith("~orders\n").doesNotContain("order-42");
        assertThat(JobCodec.decode("order-42", record))
                .usingRecursiveComparison()
                .isEqualTo(job);
    }

    @Test
    void fields_at_their_defaults_take_no_room() {
        Job job = new Job("id-1", "orders", null, null, 60_000, 0, 0, 0, "x".repeat(100), CREATED);

        String record = JobCodec.encode(job);

        // marker, topic, createTime and delay in base 36, the empty line, the body: nothing else
        assertThat(record)
                .isEqualTo("~orders\n" + Long.toString(CREATED, 36) + "\n" + Long.toString(60_000, 36) + "\n\n"
                        + "x".repeat(100));
        assertThat(record.length()).isLessThanOrEqualTo(100 + 24);
        Job back = JobCodec.decode("id-1", record);
        assertThat(back).usingRecursiveComparison().isEqualTo(job);
        assertThat(back.getSubtopic()).isNull();
        assertThat(back.getBody()).hasSize(100);
    }

    @Test
    void a_body_that_starts_with_empty_lines_or_looks_like_a_head_stays_whole() {
        Job job = new Job("id-3", "orders", null, "k", 0, 0, 0, 0, "\n\npx\nk2\n\n", 0);

        assertThat(JobCodec.decode("id-3", JobCodec.encode(job)))
                .usingRecursiveComparison()
                .isEqualTo(job);
    }

    @Test
    void a_head_line_of_a_field_this_version_does_not_know_is_skipped() {
        Job job = JobCodec.decode("id-4", "~orders\n1\n2\nzsomething new\nt3\n\nbody");

        assertThat(job.getTries()).isEqualTo(3);
        assertThat(job.getBody()).isEqualTo("body");
        assertThat(job.dueTime()).isEqualTo(3);
    }

    @Test
    void a_job_without_a_body_keeps_a_null_body() {
        Job job = new Job("id-2", "orders", null, null, 0, 0, 0, 0, null, CREATED);

        assertThat(JobCodec.decode("id-2", JobCodec.encode(job)).getBody()).isNull();
    }

    @Test
    void what_the_compact_form_cannot_hold_exactly_is_written_as_json_and_still_read() {
        Job emptySubtopic = new Job("a", "orders", "", null, 0, 0, 0, 0, "b", CREATED);
        Job newlineInBizKey = new Job("b", "orders", null, "two\nlines", 0, 0, 0, 0, "b", CREATED);
        Job emptyBody = new Job("c", "orders", null, null, 0, 0, 0, 0, "", CREATED);
        Job negative = new Job("d", "orders", null, null, -1, 0, 0, 0, "b", CREATED);

        for (Job job : new Job[] {emptySubtopic, newlineInBizKey, emptyBody, negative}) {
            String record = JobCodec.encode(job);
            assertThat(record).as(job.getId()).startsWith("{");
            assertThat(JobCodec.decode(job.getId(), record))
                    .as(job.getId())
                    .usingRecursiveComparison()
                    .isEqualTo(job);
        }
    }

    @Test
    void a_json_record_written_by_the_previous_version_is_read() {
        String old = "{\"id\":\"j9\",\"topic\":\"orders\",\"subtopic\":\"s\",\"delay\":1000,\"priority\":5,\"ttl\":10,"
                + "\"tries\":3,\"attempts\":1,\"body\":\"{\\\"k\\\":1}\",\"createTime\":1764000000000,\"status\":1}";

        Job job = JobCodec.decode("j9", old);

        assertThat(job.getId()).isEqualTo("j9");
        assertThat(job.getTopic()).isEqualTo("orders");
        assertThat(job.getSubtopic()).isEqualTo("s");
        assertThat(job.dueTime()).isEqualTo(CREATED + 1_005);
        assertThat(job.getTtl()).isEqualTo(10);
        assertThat(job.getTries()).isEqualTo(3);
        assertThat(job.getAttempts()).isEqualTo(1);
        assertThat(job.getBody()).isEqualTo("{\"k\":1}");
        assertThat(JobCodec.encodeJson(job)).startsWith("{\"id\":\"j9\"");
    }

    @Test
    void a_record_in_an_unknown_format_or_cut_short_is_refused_with_the_id() {
        assertThatThrownBy(() -> JobCodec.decode("x1", "#1\norders"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x1")
                .hasMessageContaining("unknown format");
        assertThatThrownBy(() -> JobCodec.decode("x2", "~orders\n1\n"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x2")
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> JobCodec.decode("x3", "~orders\n!!\n0\n\n"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x3");
    }

    @Test
    void numbers_are_read_in_place_as_long_to_string_writes_them_in_base_36() {
        for (long n : new long[] {0, 1, 35, 36, CREATED, Integer.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            String record = "x" + Long.toString(n, 36) + "\n";
            assertThat(JobCodec.base36(record, 1, record.length() - 1))
                    .as("%d", n)
                    .isEqualTo(n);
        }
        for (String bad : new String[] {"", "-1", "+1", "A", "1 ", "1b4x7z!", "1y2p0ij32e8e8", "zzzzzzzzzzzzzz"}) {
            String record = "x" + bad + "\n";
            assertThatThrownBy(() -> JobCodec.base36(record, 1, record.length() - 1))
                    .as("'%s'", bad)
                    .isInstanceOf(NumberFormatException.class);
        }
    }

    @Test
    void a_tagged_number_beyond_an_int_is_a_corrupt_record() {
        String tooManyTries = "~orders\n1\n2\nt" + Long.toString(1L << 31, 36) + "\n\nbody";
        assertThatThrownBy(() -> JobCodec.decode("x4", tooManyTries))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x4")
                .hasMessageContaining("corrupt");
    }
}
