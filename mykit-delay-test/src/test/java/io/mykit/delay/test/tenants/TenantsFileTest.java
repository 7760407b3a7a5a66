package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.mykit.delay.test.gateway.TestGateway;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The tenants file and the tenants' topic patterns: patterns two tenants share refuse the start and a reload; a reload
 * reads a regular file only and keeps the tenants in force otherwise; no log line or error shows a token.
 */
class TenantsFileTest {
    private static final String GOOD = """
            mykit.delay.tenants.orders.token=orders-file-token
            mykit.delay.tenants.orders.topics=order-*
            """;

    @TempDir
    Path dir;

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final String topic = "order-" + UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void release() {
        root.detachAppender(log);
    }

    /** Starts a gateway and listens to its log: a start sets up logging afresh, dropping appenders added before. */
    private TestGateway start(String... properties) {
        TestGateway gateway = TestGateway.start(properties);
        log.start();
        if (!root.isAttached(log)) {
            root.addAppender(log);
        }
        return gateway;
    }

    @Test
    void patterns_two_tenants_share_refuse_the_start_naming_both() throws Exception {
        assertThatThrownBy(() -> TestGateway.start(
                        "mykit.delay.tenants.orders.token=o-overlap",
                        "mykit.delay.tenants.orders.topics=order-*",
                        "mykit.delay.tenants.closers.token=c-overlap",
                        "mykit.delay.tenants.closers.topics=*-close"))
                .hasStackTraceContaining("pattern '*-close' of tenant 'closers' and pattern 'order-*' of tenant"
                        + " 'orders' match the same topics");
        Path file = write(GOOD);
        assertThatThrownBy(() -> TestGateway.start(
                        "mykit.delay.tenants-file=" + file,
                        "mykit.delay.tenants.all.token=all-overlap",
                        "mykit.delay.tenants.all.topics=*"))
                .hasStackTraceContaining("pattern '*' of tenant 'all' and pattern 'order-*' of tenant 'orders'");
    }

    @Test
    void a_reload_with_patterns_two_tenants_share_keeps_the_tenants_in_force_and_says_why() throws Exception {
        Path file = write(GOOD);
        try (TestGateway gateway = start("mykit.delay.tenants-file=" + file)) {
            TenantHttp http = new TenantHttp(gateway.baseUrl());
            replace(file, GOOD + """
                    mykit.delay.tenants.spy.token=spy-file-token
                    mykit.delay.tenants.spy.topics=order-c*
                    """);
            awaitLogged("tenants file " + file + " is not valid, the tenants in force stay: "
                    + "mykit.delay.tenants.orders.topics: pattern 'order-*' of tenant 'orders' and pattern 'order-c*'"
                    + " of tenant 'spy' match the same topics");
            assertThat(http.call("spy-file-token", "GET", "/stats", null).status())
                    .isEqualTo(401);
            http.push("orders-file-token", topic, "k", 60_000);
        }
    }

    @Test
    void a_fifo_at_the_path_is_refused_and_logged_and_a_regular_file_after_it_is_read() throws Exception {
        Path file = write(GOOD);
        try (TestGateway gateway = start("mykit.delay.tenants-file=" + file)) {
            TenantHttp http = new TenantHttp(gateway.baseUrl());
            Path fifo = dir.resolve("tenants.fifo");
            Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
            assertThat(mkfifo.waitFor()).isZero();
            Files.move(fifo, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            awaitLogged("not a regular file");
            assertThat(logged()).contains("tenants file " + file + " cannot be read, the tenants in force stay");
            http.push("orders-file-token", topic, "k", 60_000);

            replace(file, GOOD.replace("token=orders-file-token", "tokens=orders-file-token,orders-next-token"));
            await().atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> http.call("orders-next-token", "GET", "/stats", null)
                                    .status()
                            == 200);
        }
    }

    @Test
    void a_wrapped_line_holding_a_token_is_named_by_its_line_and_the_token_is_never_logged() throws Exception {
        String wrapped = GOOD + """
                mykit.delay.tenants.orders.tokens=orders-file-token,
                w1ld-wrapped-secret-token
                mykit.delay.tenants.orders.max-polls=w1ld-wrapped-secret-polls
                """;
        Path bad = write(wrapped);
        Throwable refused = catchThrowable(() -> TestGateway.start("mykit.delay.tenants-file=" + bad));
        assertThat(trace(refused))
                .contains("line 4: not a key of the tenants file")
                .doesNotContain("w1ld-wrapped-secret");

        Path file = write(GOOD);
        try (TestGateway gateway = start("mykit.delay.tenants-file=" + file)) {
            replace(file, wrapped);
            awaitLogged("line 4: not a key of the tenants file");
            assertThat(logged())
                    .contains("line 5: mykit.delay.tenants.orders.max-polls is not a number")
                    .doesNotContain("w1ld-wrapped-secret");
        }
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void a_bad_tenant_setting_in_the_configuration_names_its_key_never_its_value(CapturedOutput output) {
        Throwable refused = catchThrowable(() -> TestGateway.start(
                "mykit.delay.tenants.orders.token=orders-conf-token",
                "mykit.delay.tenants.orders.topics=order-*",
                "mykit.delay.tenants.orders.max-pending=w1ld-conf-secret-1",
                "mykit.delay.tenants.orders.tokens[x]=w1ld-conf-secret-2"));
        assertThat(refused).as("the start is refused").isNotNull();
        // what the start logs: Boot's report of the failure, and any line of the gateway's own
        assertThat(output.getAll())
                .contains("Failed to bind mykit.delay.tenants.orders.max-pending")
                .doesNotContain("w1ld-conf-secret");
    }

    private static String trace(Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }

    private Path write(String text) throws Exception {
        Path file = Files.createTempFile(dir, "tenants", ".properties");
        Files.writeString(file, text);
        return file;
    }

    /** Puts a new regular file at {@code file} in one step, whatever was there. */
    private void replace(Path file, String text) throws Exception {
        Path next = Files.createTempFile(dir, "next", ".properties");
        Files.writeString(next, text);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void awaitLogged(String text) {
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(logged()).contains(text));
    }

    /** Every line logged since the test began, with the text of any exception logged with it. */
    private String logged() {
        StringBuilder all = new StringBuilder();
        for (ILoggingEvent event : List.copyOf(log.list)) {
            all.append(event.getFormattedMessage()).append('\n');
            if (event.getThrowableProxy() != null) {
                all.append(ThrowableProxyUtil.asString(event.getThrowableProxy()))
                        .append('\n');
            }
        }
        return all.toString();
    }
}
