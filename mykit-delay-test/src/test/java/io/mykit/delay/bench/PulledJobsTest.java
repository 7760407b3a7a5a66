package io.mykit.delay.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The bench pullers' streaming read of pull answers: ids and due times, whatever else the answer holds. */
class PulledJobsTest {

    @Test
    void a_single_pull_gives_its_job_and_due_time() throws IOException {
        PulledJobs.Answer answer = PulledJobs.parse("{\"code\":200,\"msg\":\"ok\",\"data\":{\"id\":\"j1\","
                + "\"topic\":\"t\",\"createTime\":1000,\"delay\":250,\"priority\":5,"
                + "\"body\":\"{\\\"id\\\":\\\"x\\\"}\","
                + "\"extra\":{\"id\":\"nested\",\"delay\":99},\"tags\":[1,{\"delay\":7}]}}");

        assertThat(answer.batch()).isFalse();
        assertThat(answer.jobs()).containsExactly(new PulledJobs.Pulled("j1", 1255));
    }

    @Test
    void a_batch_pull_gives_every_job_in_order() throws IOException {
        PulledJobs.Answer answer = PulledJobs.parse("{\"data\":[{\"id\":\"a\",\"createTime\":10,\"delay\":1},"
                + "{\"delay\":2,\"id\":\"b\",\"createTime\":20}],\"code\":200}");

        assertThat(answer.batch()).isTrue();
        assertThat(answer.jobs()).containsExactly(new PulledJobs.Pulled("a", 11), new PulledJobs.Pulled("b", 22));
    }

    @Test
    void an_empty_answer_gives_no_job() throws IOException {
        assertThat(PulledJobs.parse("{\"code\":200,\"data\":null}").jobs()).isEmpty();
        assertThat(PulledJobs.parse("{\"code\":200,\"data\":[]}").jobs()).isEmpty();
        assertThat(PulledJobs.parse("{\"code\":200}").jobs()).isEmpty();
    }

    @Test
    void a_batch_with_an_element_that_is_no_job_is_an_error_not_a_shorter_batch() {
        assertThatThrownBy(() -> PulledJobs.parse("{\"data\":[{\"id\":\"a\"},null,{\"id\":\"b\"}]}"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("no job");
        assertThatThrownBy(() -> PulledJobs.parse("{\"data\":[\"a\"]}")).isInstanceOf(IOException.class);
    }

    @Test
    void a_job_without_an_id_or_an_answer_that_is_no_object_is_an_error() {
        assertThatThrownBy(() -> PulledJobs.parse("{\"data\":{\"delay\":1}}"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("without an id");
        assertThatThrownBy(() -> PulledJobs.parse("[]")).isInstanceOf(IOException.class);
    }
}
