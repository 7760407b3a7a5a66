package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.mykit.delay.controller.ApiExceptionHandler;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;

/**
 * The gateway's log lines about failed requests, caught while open, to check that a server-side failure answers only
 * what failed and a request id, and that the line with that id in the log holds the details.
 */
public final class FailureLog implements AutoCloseable {
    private static final Pattern PUBLIC = Pattern.compile("(.+) \\(request id ([0-9a-f]{12})\\)");

    private final Logger logger = (Logger) LoggerFactory.getLogger(ApiExceptionHandler.class);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    private FailureLog() {
        lines.start();
        logger.addAppender(lines);
    }

    public static FailureLog capture() {
        return new FailureLog();
    }

    /**
     * Asserts that {@code reply}'s message is {@code what} and a request id, nothing else, and returns the log line of
     * that id (with its details).
     */
    public String lineOf(Reply reply, String what) {
        String message = reply.json().path("message").asText();
        Matcher matcher = PUBLIC.matcher(message);
        assertThat(matcher.matches())
                .as("a public failure message: what failed and a request id: " + reply)
                .isTrue();
        assertThat(matcher.group(1)).as(reply.toString()).isEqualTo(what);
        String id = matcher.group(2);
        List<String> logged = List.copyOf(lines.list).stream()
                .map(ILoggingEvent::getFormattedMessage)
                .filter(line -> line.contains("request " + id + " "))
                .toList();
        assertThat(logged).as("log lines of request " + id).hasSize(1);
        return logged.get(0);
    }

    @Override
    public void close() {
        logger.detachAppender(lines);
    }
}
