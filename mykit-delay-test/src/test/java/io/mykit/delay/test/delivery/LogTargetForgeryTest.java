package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.mykit.delay.queue.dispatch.LogTarget;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A job delivered to the log target cannot forge log lines: the line breaks, control characters and Unicode separators
 * of its subtopic, bizKey and body are written as escapes, so each delivery stays one line of its own.
 */
class LogTargetForgeryTest {
    private static final String FORGED = "2026-01-01 00:00:00.000  INFO 1 --- [main] admin GET /clearAll status=200";

    @Gateway("mykit.delay.dispatch.default-target=log")
    private static TestGateway gateway;

    @Test
    void a_job_with_line_breaks_in_its_fields_and_body_is_logged_on_one_line_each() {
        Logger logger = (Logger) LoggerFactory.getLogger(LogTarget.class);
        Level before = logger.getLevel();
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        logger.setLevel(Level.DEBUG);
        try {
            String topic = "forge-" + UUID.randomUUID().toString().substring(0, 8);
            // subtopic and bizKey refuse control characters at the push, not Unicode's line separators
            String body = "{\"topic\":\"" + topic + "\",\"delay\":0,\"subtopic\":\"s\\u2029" + FORGED
                    + "\",\"bizKey\":\"k\\u2028" + FORGED + "\",\"body\":\"b\\r\\n" + FORGED
                    + "\\u0085x\\u001b[2J\"}";
            Reply pushed = gateway.client().push(body);
            assertThat(pushed.success()).as(pushed.toString()).isTrue();
            String id = pushed.data().asText();

            await().atMost(Duration.ofSeconds(15))
                    .until(() -> linesOf(lines, id).size() == 2);
            for (String line : linesOf(lines, id)) {
                assertThat(line).as(line).doesNotContain("\n", "\r", "\u2028", "\u2029", "\u0085", "\u001b");
            }
            assertThat(linesOf(lines, id).get(0)).contains("subtopic=s\\u2029" + FORGED, "bizKey=k\\u2028" + FORGED);
            assertThat(linesOf(lines, id).get(1)).contains("body=b\\r\\n" + FORGED + "\\u0085x\\u001b[2J");
        } finally {
            logger.detachAppender(lines);
            logger.setLevel(before);
        }
    }

    private static List<String> linesOf(ListAppender<ILoggingEvent> lines, String id) {
        return List.copyOf(lines.list).stream()
                .map(ILoggingEvent::getFormattedMessage)
                .filter(line -> line.contains("id=" + id + " "))
                .toList();
    }
}
