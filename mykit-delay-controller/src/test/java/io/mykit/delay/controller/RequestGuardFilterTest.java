package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.ThreadMXBean;
import jakarta.servlet.ServletRequest;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The body guard in front of every handler: what it lets through and refuses, and what one small push costs it. The
 * servlet request is Spring's in-memory one: this is the filter's own logic, the gateway tests drive it over HTTP.
 */
class RequestGuardFilterTest {
    private static final long MAX_BYTES = 1_048_576;
    private static final String PUSH = "{\"topic\":\"orders\",\"delay\":30000,\"body\":\"" + "x".repeat(100) + "\"}";

    private final InFlightBodies bodies = new InFlightBodies(MAX_BYTES, 4, Duration.ofSeconds(10));
    private final RequestGuardFilter filter =
            new RequestGuardFilter(new BodyLimits(MAX_BYTES, 64 * 1024, 1000), bodies, new ObjectMapper());

    @Test
    void a_valid_body_reaches_the_handler_whole_and_readable_in_one_call() throws Exception {
        String body = "{\"topic\":\"t\",\"body\":\"caf\u00e9 \u4e2d\u6587\"}";
        AtomicReference<byte[]> seen = new AtomicReference<>();
        MockHttpServletResponse response = new MockHttpServletResponse();

        filter.doFilter(post(body.getBytes(StandardCharsets.UTF_8)), response, reading(seen));

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(new String(seen.get(), StandardCharsets.UTF_8)).isEqualTo(body);
        assertThat(bodies.reserved()).as("the budget given back").isZero();
    }

    @Test
    void invalid_utf8_is_refused_with_400_when_the_handler_reads_it() throws Exception {
        // an overlong '/' and a lone continuation byte: a lenient decoder would turn them into characters
        for (byte[] bad : new byte[][] {{'{', (byte) 0xC0, (byte) 0xAF, '}'}, {'{', (byte) 0x80, '}'}}) {
            assertThatThrownBy(() -> filter.doFilter(post(bad), new MockHttpServletResponse(), reading(null)))
                    .isInstanceOfSatisfying(
                            RequestBodyException.class,
                            e -> assertThat(e.status()).isEqualTo(400))
                    .hasMessageContaining("not valid UTF-8");
        }
    }

    @Test
    void a_body_over_the_limit_without_a_declared_length_is_refused_with_413_as_it_is_read() throws Exception {
        byte[] body = ("[" + PUSH + "," + " ".repeat(20_000) + "]").getBytes(StandardCharsets.UTF_8);
        MockHttpServletRequest chunked = post(body);
        chunked.setRequestURI("/jobs");
        chunked.setServletPath("/jobs");
        chunked.addHeader("Transfer-Encoding", "chunked");

        assertThatThrownBy(() ->
                        filter.doFilter(new UndeclaredLength(chunked), new MockHttpServletResponse(), reading(null)))
                .isInstanceOfSatisfying(
                        RequestBodyException.class, e -> assertThat(e.status()).isEqualTo(413));
        assertThat(bodies.reserved()).isZero();
    }

    @Test
    void a_declared_length_over_the_route_limit_is_refused_before_the_handler() throws Exception {
        MockHttpServletRequest request = post(new byte[(int) BodyLimits.NO_BODY + 1]);
        request.setMethod("GET");
        request.setRequestURI("/stats");
        request.setServletPath("/stats");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        filter.doFilter(request, response, chain);

        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(chain.getRequest()).isNull();
    }

    @Test
    void a_body_beyond_the_free_budget_is_refused_with_503_and_retry_after() throws Exception {
        assertThat(bodies.reserve(MAX_BYTES - 100)).isTrue();
        try {
            MockHttpServletResponse response = new MockHttpServletResponse();
            MockFilterChain chain = new MockFilterChain();

            filter.doFilter(post(PUSH.getBytes(StandardCharsets.UTF_8)), response, chain);

            assertThat(response.getStatus()).isEqualTo(503);
            assertThat(response.getHeader("Retry-After")).isEqualTo("1");
            assertThat(chain.getRequest()).isNull();
        } finally {
            bodies.release(MAX_BYTES - 100);
        }
    }

    @Test
    void trace_is_refused_without_echoing_anything() throws Exception {
        MockHttpServletRequest trace = new MockHttpServletRequest("TRACE", "/push");
        trace.addHeader("X-Admin-Token", "secret-token");
        MockHttpServletResponse response = new MockHttpServletResponse();

        filter.doFilter(trace, response, new MockFilterChain());

        assertThat(response.getStatus()).isEqualTo(405);
        assertThat(response.getContentAsString()).doesNotContain("secret-token");
    }

    /** A chain whose handler reads the whole body, keeping it in {@code seen} when given. */
    private static MockFilterChain reading(AtomicReference<byte[]> seen) {
        return new MockFilterChain() {
            @Override
            public void doFilter(ServletRequest request, jakarta.servlet.ServletResponse ignored)
                    throws java.io.IOException {
                byte[] body = request.getInputStream().readAllBytes();
                if (seen != null) {
                    seen.set(body);
                }
            }
        };
    }

    @Test
    void a_small_push_costs_the_guard_and_its_reader_no_8_kb_buffer() throws Exception {
        byte[] body = PUSH.getBytes(StandardCharsets.UTF_8);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Runnable once = () -> {
            try {
                filter.doFilter(post(body), new MockHttpServletResponse(), new MockFilterChain() {
                    @Override
                    public void doFilter(ServletRequest request, jakarta.servlet.ServletResponse response)
                            throws java.io.IOException {
                        request.getInputStream().readAllBytes();
                    }
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        Runnable bare = () -> {
            post(body);
            new MockHttpServletResponse();
        };
        for (int i = 0; i < 2_000; i++) {
            once.run();
            bare.run();
        }
        long id = Thread.currentThread().getId();
        int calls = 1_000;
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < calls; i++) {
            once.run();
        }
        long guarded = threads.getThreadAllocatedBytes(id) - before;
        before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < calls; i++) {
            bare.run();
        }
        long requestsAlone = threads.getThreadAllocatedBytes(id) - before;

        // before, the guard read through an 8 KB buffer and the handler's readAllBytes through another: > 16 KB a call
        assertThat((guarded - requestsAlone) / calls)
                .as("bytes the guard and one readAllBytes allocate per call")
                .isLessThan(4_096);
    }

    private static MockHttpServletRequest post(byte[] body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/push");
        request.setServletPath("/push");
        request.setContentType("application/json");
        request.setContent(body);
        return request;
    }

    /** A request whose length is not declared, as a chunked upload's. */
    private static final class UndeclaredLength extends jakarta.servlet.http.HttpServletRequestWrapper {
        UndeclaredLength(MockHttpServletRequest request) {
            super(request);
        }

        @Override
        public long getContentLengthLong() {
            return -1;
        }

        @Override
        public int getContentLength() {
            return -1;
        }
    }
}
