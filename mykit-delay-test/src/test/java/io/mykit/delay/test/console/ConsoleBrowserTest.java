package io.mykit.delay.test.console;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import io.mykit.delay.test.gateway.AdminCanaries;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.io.File;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.slf4j.LoggerFactory;

/**
 * The web console in a real headless Chromium (Debian's chromium and chromium-driver, which .ci/run installs; without
 * them Selenium Manager provides Chrome and its driver, and the test fails if it cannot): the page loads, counts follow
 * pushes made through the API, a job is cancelled and a dead letter respawned from the page. Without an admin token the
 * console on this host still makes admin calls, and a page of another origin in the same browser cannot make any.
 */
class ConsoleBrowserTest {
    private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
    private static final String TOKEN = "console-admin-token";

    @Gateway({
        "mykit.delay.timer.sweep-interval=100ms",
        "mykit.delay.pull.poll-interval=50ms",
        "mykit.delay.admin.token=" + TOKEN
    })
    private static TestGateway gateway;

    private static GatewayClient client;
    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void start() throws Exception {
        boolean debianChromium = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        client = gateway.client();
        profile = Files.createTempDirectory("console-chromium");
        ChromeOptions options = new ChromeOptions();
        if (debianChromium) {
            options.setBinary(CHROMIUM.toFile());
        }
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--window-size=1400,1300");
        if (debianChromium) {
            browser = new ChromeDriver(
                    new ChromeDriverService.Builder()
                            .usingDriverExecutable(CHROMEDRIVER.toFile())
                            .usingAnyFreePort()
                            .build(),
                    options);
        } else {
            // no skipping: elsewhere Selenium Manager finds (or downloads) Chrome and its driver, or this fails loudly
            browser = new ChromeDriver(options);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .map(Path::toFile)
                        .forEach(File::delete);
            }
        }
    }

    private static WebDriverWait waiting() {
        // the page re-renders its tables on every refresh: an element read a moment ago may be gone, look again
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        return wait;
    }

    private static String push(String topic, String fields) {
        Reply reply = client.push("{\"topic\":\"" + topic + "\"" + fields + "}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }

    /** Waits until the console's topic table shows {@code expected} in one column of a topic's row. */
    private static void awaitCell(String topic, String column, String expected) {
        By cell = By.cssSelector("#topics tr[data-topic='" + topic + "'] ." + column);
        waiting().withMessage(() -> column + " of " + topic + " on the page").until(driver -> {
            List<WebElement> found = driver.findElements(cell);
            return !found.isEmpty() && found.get(0).getText().equals(expected);
        });
    }

    private static void awaitMessage(String contains) {
        waiting()
                .withMessage(() -> "message containing '" + contains + "', page says '"
                        + browser.findElement(By.id("message")).getText() + "'")
                .until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), contains));
    }

    private static void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    @Test
    void the_console_shows_counts_cancels_a_job_and_respawns_a_dead_letter() throws Exception {
        browser.get(gateway.baseUrl() + "/console");
        assertThat(browser.getTitle()).isEqualTo("mykit-delay console");
        waiting().until(ExpectedConditions.textMatches(By.id("updated"), java.util.regex.Pattern.compile("^updated ")));

        String orders = "orders-" + UUID.randomUUID().toString().substring(0, 6);
        List<String> ids = List.of(
                push(orders, ",\"delay\":1800000,\"bizKey\":\"order-1\""),
                push(orders, ",\"delay\":1800000,\"bizKey\":\"order-2\""),
                push(orders, ",\"delay\":600000,\"bizKey\":\"order-3\""));
        awaitCell(orders, "pending", "3");
        waiting()
                .withMessage("a bar for the jobs due within the hour")
                .until(driver -> driver.findElements(By.cssSelector("#due-chart rect.bar")).stream()
                                .mapToLong(bar -> Long.parseLong(bar.getDomAttribute("data-count")))
                                .sum()
                        >= 3);

        // look the job up by id and cancel it from the page
        type("job-id", ids.get(0));
        browser.findElement(By.id("job-find")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("job-facts"), "order-1"));
        browser.findElement(By.id("job-cancel")).click();
        awaitMessage("cancelled");
        awaitCell(orders, "pending", "2");
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("job-facts"), "Delete"));
        assertThat(client.lookup(ids.get(0)).data().path("status").asText()).isEqualTo("Delete");

        // a pull job with one try whose reservation runs out unfinished becomes a dead letter
        String payments = "payments-" + UUID.randomUUID().toString().substring(0, 6);
        String dead = push(payments, ",\"tries\":1,\"bizKey\":\"pay-7\"");
        assertThat(client.get(payments, 200, 30_000).data().path("id").asText()).isEqualTo(dead);
        awaitCell(payments, "dead", "1");

        type("dead-topic", payments);
        browser.findElement(By.id("dead-load")).click();
        By respawn = By.cssSelector("#dead-rows tr[data-id='" + dead + "'] button.respawn");
        waiting().until(ExpectedConditions.elementToBeClickable(respawn)).click();
        awaitMessage("admin token required");
        assertThat(client.lookup(dead).data().path("status").asText())
                .as("refused without the token")
                .isEqualTo("Dead");

        type("admin-token", TOKEN);
        browser.findElement(By.id("admin-save")).click();
        assertThat(((JavascriptExecutor) browser)
                        .executeScript("return sessionStorage.getItem('mykit-delay.admin-token')"))
                .isEqualTo(TOKEN);
        browser.findElement(respawn).click();
        awaitMessage("1 respawned");
        awaitCell(payments, "dead", "0");
        awaitCell(payments, "ready", "1");
        waiting().until(ExpectedConditions.invisibilityOfElementLocated(respawn));

        // the cluster view is an admin call too; with the token kept it answers
        browser.findElement(By.id("cluster-load")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("cluster-facts"), "standalone"));

        Path shot = Paths.get("target", "console.png");
        Files.createDirectories(shot.getParent());
        Files.copy(
                ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(),
                shot,
                StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(shot)).as("screenshot " + shot.toAbsolutePath()).isPositive();
    }

    /**
     * A gateway without a token answers admin calls from this host, and a browser on this host is on this host: a page
     * of another origin it shows (here a page served on another port) sends an image GET, a no-cors fetch and a form
     * POST to the wiping routes, all refused; the console, served by the gateway itself, still respawns a dead letter.
     */
    @Test
    void without_a_token_the_console_makes_admin_calls_and_a_page_of_another_origin_cannot() throws Exception {
        Logger adminLog = (Logger) LoggerFactory.getLogger("io.mykit.delay.admin");
        ListAppender<ILoggingEvent> adminLines = new ListAppender<>();
        adminLines.start();
        adminLog.addAppender(adminLines);
        HttpServer hostile = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        try (TestGateway loopback = TestGateway.start()) {
            String topic = "console-" + UUID.randomUUID().toString().substring(0, 6);
            AdminCanaries canaries = AdminCanaries.seed(loopback, topic);
            int port = URI.create(loopback.baseUrl()).getPort();
            byte[] page = hostilePage(port).getBytes(StandardCharsets.UTF_8);
            hostile.createContext("/", exchange -> {
                exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, page.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(page);
                }
            });
            hostile.start();
            browser.get("http://127.0.0.1:" + hostile.getAddress().getPort() + "/");
            waiting()
                    .withMessage(() -> "the page's calls in the admin log: " + lines(adminLines))
                    .until(driver -> lines(adminLines).stream()
                                    .filter(line -> line.contains("status=403"))
                                    .count()
                            >= 4);
            assertThat(lines(adminLines))
                    .as("every call the page made was refused")
                    .allMatch(line -> line.contains("status=403"));
            assertThat(canaries.changes()).as("what the page's calls changed").isEmpty();

            browser.get(loopback.baseUrl() + "/console");
            type("dead-topic", topic);
            browser.findElement(By.id("dead-load")).click();
            By respawn = By.cssSelector("#dead-rows tr[data-id='" + canaries.dead() + "'] button.respawn");
            waiting().until(ExpectedConditions.elementToBeClickable(respawn)).click();
            awaitMessage("1 respawned");
            assertThat(canaries.changes())
                    .as("the console's respawn ran")
                    .anyMatch(change -> change.startsWith(canaries.dead() + " is journaled"));
        } finally {
            hostile.stop(0);
            adminLog.detachAppender(adminLines);
        }
    }

    /** Calls a page of another origin can make a browser send: no preflight, no answer it could read needed. */
    private static String hostilePage(int gatewayPort) {
        String here = "http://127.0.0.1:" + gatewayPort;
        String crossSite = "http://localhost:" + gatewayPort;
        return "<!doctype html><html><body>"
                + "<img src='" + here + "/clearAll?cancel=true'>"
                + "<iframe name='sink'></iframe>"
                + "<form id='wipe' method='POST' target='sink' action='" + crossSite
                + "/admin/clear?cancel=true'></form>"
                + "<script>"
                + "fetch('" + crossSite + "/clearAll?cancel=true', {mode: 'no-cors'})"
                + ".finally(() => fetch('" + here + "/admin/restore?expire=true', {mode: 'no-cors', method: 'POST'}))"
                + ".finally(() => document.getElementById('wipe').submit());"
                + "</script></body></html>";
    }

    private static List<String> lines(ListAppender<ILoggingEvent> appender) {
        return List.copyOf(appender.list).stream()
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }
}
