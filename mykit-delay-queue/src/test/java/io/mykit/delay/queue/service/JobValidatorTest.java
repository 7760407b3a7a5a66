package io.mykit.delay.queue.service;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.model.Job;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class JobValidatorTest {
    private static final long NOW = 1_800_000_000_000L;
    /** The limits mykit.delay.limits.* and mykit.delay.pull.* default to. */
    private final JobValidator validator = new JobValidator(
            new JobLimits(64 * 1024, 1000, Duration.ofDays(366), 16),
            new PullLimits(Duration.ofSeconds(30), Duration.ofHours(1), Duration.ofSeconds(30)));

    private static Job job(Consumer<Job> change) {
        Job job = new Job(null, "orders", null, null, 1000, 0, 0, 0, "b", 0);
        change.accept(job);
        return job;
    }

    private void assertRejected(Job job, String field) {
        assertThatThrownBy(() -> validator.validate(job, NOW))
                .isInstanceOfSatisfying(
                        InvalidJobException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.field())
                                .isEqualTo(field));
    }

    @Test
    void accepts_a_plain_job() {
        assertThatCode(() -> validator.validate(job(j -> {}), NOW)).doesNotThrowAnyException();
    }

    @Test
    void rejects_each_bad_field_by_name() {
        assertRejected(job(j -> j.setTopic(null)), "topic");
        assertRejected(job(j -> j.setTopic("a b")), "topic");
        assertRejected(job(j -> j.setTopic("x".repeat(129))), "topic");
        assertRejected(job(j -> j.setId("semi;colon")), "id");
        assertRejected(job(j -> j.setDelay(-1)), "delay");
        assertRejected(job(j -> j.setDelay(400L * 24 * 3600 * 1000)), "delay");
        assertRejected(job(j -> j.setPriority(-1)), "priority");
        assertRejected(job(j -> j.setTtl(-1)), "ttl");
        assertRejected(job(j -> j.setTries(1001)), "tries");
        assertRejected(job(j -> j.setCreateTime(-5)), "createTime");
        assertRejected(job(j -> j.setBody("x".repeat(64 * 1024 + 1))), "body");
        assertRejected(job(j -> j.setSubtopic("tab\there")), "subtopic");
        assertRejected(job(j -> j.setBizKey("k".repeat(129))), "bizKey");
    }

    @Test
    void rejects_a_lone_surrogate_in_any_text_field_by_name() {
        assertRejected(job(j -> j.setTopic("orders\ud800")), "topic");
        assertRejected(job(j -> j.setId("id\udc00")), "id");
        assertRejected(job(j -> j.setSubtopic("paid\ud800")), "subtopic");
        assertRejected(job(j -> j.setBizKey("order-42\udfff")), "bizKey");
        assertRejected(job(j -> j.setBizKey("\ude00\ud83d")), "bizKey");
        assertRejected(job(j -> j.setBody("{\"x\":\"\ud83d\"}")), "body");
        assertThatCode(() -> validator.validate(
                        job(j -> {
                            j.setBizKey("order-\ud83d\ude00");
                            j.setBody("smile \ud83d\ude00");
                        }),
                        NOW))
                .as("a surrogate pair is one character")
                .doesNotThrowAnyException();
    }

    @Test
    void counts_body_size_in_utf8_bytes() {
        // 22k three-byte characters are 66k bytes: over the 64 KiB default though under 64k chars
        assertRejected(job(j -> j.setBody("好".repeat(22_000))), "body");
    }
}
