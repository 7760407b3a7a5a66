package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;

/**
 * Which of the advice's handlers Spring picks for a failure. A client that hung up before its answer was written
 * (Spring raises {@link AsyncRequestNotUsableException} for it, around Tomcat's ClientAbortException) is nothing the
 * gateway did wrong: it once reached the catch-all, which logged "unexpected error" at ERROR with a stack trace and
 * then tried to write a 500 to the closed connection (seen at the end of 2 of 9 start-up warm-ups).
 */
class ApiExceptionHandlerTest {
    private final ExceptionHandlerMethodResolver resolver =
            new ExceptionHandlerMethodResolver(ApiExceptionHandler.class);

    @Test
    void a_client_gone_mid_answer_is_not_an_unexpected_error() {
        Method handler = resolver.resolveMethod(new AsyncRequestNotUsableException(
                "ServletOutputStream failed to flush", new IOException("java.nio.channels.ClosedChannelException")));
        assertThat(handler).isNotNull();
        assertThat(handler.getName()).isEqualTo("clientGone");
        assertThat(handler.getReturnType())
                .as("nothing is written to a closed connection")
                .isEqualTo(void.class);
    }

    @Test
    void anything_else_unknown_still_is() {
        assertThat(resolver.resolveMethod(new IllegalStateException("boom")).getName())
                .isEqualTo("unexpected");
    }
}
