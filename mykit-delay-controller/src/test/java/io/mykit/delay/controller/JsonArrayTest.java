package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.model.Job;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.mock.web.DelegatingServletInputStream;
import org.springframework.mock.web.MockHttpServletRequest;

/** Arrays read element by element: answers worded as the converter's, and reading stops past the limit. */
class JsonArrayTest {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final JsonArray<Job> jobs = new JsonArray<>(MAPPER, Job.class);
    private final ApiExceptionHandler handler = new ApiExceptionHandler();

    @Test
    void an_array_of_jobs_is_read_whole() {
        List<Job> read =
                jobs.read(body("[{\"topic\":\"a\"}, {\"topic\":\"b\",\"delay\":5}]"), 10, IllegalStateException::new);
        assertThat(read).extracting(Job::getTopic).containsExactly("a", "b");
    }

    @Test
    void a_bad_element_is_named_by_its_index() {
        assertThatThrownBy(() -> jobs.read(body("[{\"topic\":\"a\"},{\"dealy\":1}]"), 10, IllegalStateException::new))
                .isInstanceOfSatisfying(
                        HttpMessageNotReadableException.class,
                        e -> assertThat(handler.unreadable(e).getBody().message())
                                .startsWith("[1].dealy: unknown field"));
    }

    @Test
    void empty_null_trailing_and_non_arrays_are_refused_as_before() {
        for (String bad : List.of("", "null", "[] []", "{\"topic\":\"a\"}", "[{}", "[{},]")) {
            assertThatThrownBy(() -> jobs.read(body(bad), 10, IllegalStateException::new))
                    .as(bad)
                    .isInstanceOf(HttpMessageNotReadableException.class);
        }
    }

    @Test
    void reading_stops_at_the_first_element_past_the_limit() {
        AtomicLong served = new AtomicLong();
        byte[] start = ("[" + "{},".repeat(100_000)).getBytes(StandardCharsets.US_ASCII);
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                long at = served.getAndIncrement();
                return at < start.length ? start[(int) at] : ' ';
            }
        };
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/push/batch") {
            @Override
            public jakarta.servlet.ServletInputStream getInputStream() {
                return new DelegatingServletInputStream(endless);
            }
        };

        assertThatThrownBy(() -> jobs.read(request, 1000, () -> new IllegalStateException("too many")))
                .hasMessage("too many");
        assertThat(served.get()).as("bytes read").isLessThan(20_000);
    }

    @Test
    void a_body_refused_inside_a_string_is_answered_as_the_guard_refused_it() {
        byte[] start = "[{\"topic\":\"a\",\"body\":\"xxxxxxxx".getBytes(StandardCharsets.US_ASCII);
        InputStream guarded = new InputStream() {
            private int at;

            @Override
            public int read() {
                if (at == start.length) {
                    throw RequestBodyException.tooLarge(start.length);
                }
                return start[at++];
            }
        };
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/push/batch") {
            @Override
            public jakarta.servlet.ServletInputStream getInputStream() {
                return new DelegatingServletInputStream(guarded);
            }
        };

        // the parser may pass the guard's refusal on as it is or wrapped in its own: both answer 413
        assertThatThrownBy(() -> jobs.read(request, 10, IllegalStateException::new))
                .satisfies(e -> assertThat((e instanceof HttpMessageNotReadableException unreadable
                                        ? handler.unreadable(unreadable)
                                        : ApiExceptionHandler.forFailure((RuntimeException) e))
                                .getStatusCode()
                                .value())
                        .isEqualTo(413));
    }

    private static MockHttpServletRequest body(String json) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/push/batch");
        request.setContent(json.getBytes(StandardCharsets.UTF_8));
        return request;
    }
}
