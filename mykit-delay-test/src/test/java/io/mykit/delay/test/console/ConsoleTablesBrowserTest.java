package io.mykit.delay.test.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What a newcomer sees in the console's dead letters and job look-up, in a real headless Chromium: the dead-letter
 * table keeps its headers and ids on one line each and shows the attempts the API answers; a bizKey look-up that fails
 * leaves no earlier job on screen, and an empty topic field is not sent.
 */
class ConsoleTablesBrowserTest {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 6);

    @Gateway({"mykit.delay.timer.sweep-interval=100ms", "mykit.delay.pull.poll-interval=50ms"})
    private static TestGateway gateway;

    private static GatewayClient client;
    private static HeadlessChromium chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        client = gateway.client();
        chromium = new HeadlessChromium("--window-size=1400,1300");
        browser = chromium.driver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    private static WebDriverWait waiting() {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private static Object script(String js, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(js, args);
    }

    /** How many lines the text of an element takes on screen: the distinct tops of its text's boxes. */
    private static long lines(WebElement element) {
        return (Long) script(
                "const walker = document.createTreeWalker(arguments[0], NodeFilter.SHOW_TEXT);"
                        + "const tops = new Set();"
                        + "for (let node = walker.nextNode(); node; node = walker.nextNode()) {"
                        + "  const range = document.createRange(); range.selectNodeContents(node);"
                        + "  [...range.getClientRects()].filter(r => r.width > 0)"
                        + "      .forEach(r => tops.add(Math.round(r.top)));"
                        + "}"
                        + "return tops.size;",
                element);
    }

    private static void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    private static void openConsole() {
        browser.get(gateway.baseUrl() + "/console");
        waiting().until(ExpectedConditions.textMatches(By.id("updated"), Pattern.compile("^updated ")));
    }

    /** The URLs the page fetched since its resource timings were last cleared. */
    @SuppressWarnings("unchecked")
    private static List<String> fetched() {
        return (List<String>) script("return performance.getEntriesByType('resource')"
                + ".filter(e => e.initiatorType === 'fetch').map(e => e.name);");
    }

    @Test
    void dead_letters_keep_headers_and_ids_on_one_line_and_show_the_attempts_the_api_answers() {
        String topic = "invoices-" + RUN;
        String bizKey = "invoice-2026-11-28-customer-4711-payment-reminder-" + RUN;
        Reply pushed = client.push("{\"topic\":\"" + topic + "\",\"tries\":2,\"bizKey\":\"" + bizKey + "\"}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        String id = pushed.data().asText();
        // two reservations run out unfinished: the job used both its tries and is a dead letter
        for (int i = 0; i < 2; i++) {
            Reply reserved = client.get(topic, 200, 30_000);
            assertThat(reserved.data().path("id").asText())
                    .as(reserved.toString())
                    .isEqualTo(id);
        }
        waiting()
                .withMessage("the job a dead letter")
                .until(driver ->
                        "Dead".equals(client.lookup(id).data().path("status").asText()));
        JsonNode listed = client.get("/dead/" + topic).data();
        assertThat(listed).as(listed.toString()).hasSize(1);

        openConsole();
        type("dead-topic", topic);
        browser.findElement(By.id("dead-load")).click();
        By row = By.cssSelector("#dead-rows tr[data-id='" + id + "']");
        waiting().until(ExpectedConditions.presenceOfElementLocated(row));

        @SuppressWarnings("unchecked")
        List<WebElement> headers = (List<WebElement>)
                script("return [...document.getElementById('dead-rows').closest('table').querySelectorAll('thead th')]"
                        + ".filter(th => th.textContent.trim() !== '');");
        assertThat(headers).hasSize(3);
        for (WebElement header : headers) {
            assertThat(lines(header))
                    .as("lines of the header '%s'", header.getText())
                    .isEqualTo(1);
        }
        List<WebElement> cells = browser.findElement(row).findElements(By.tagName("td"));
        WebElement idCell = cells.get(0);
        assertThat(lines(idCell)).as("lines of the id cell").isEqualTo(1);
        assertThat((String) script("return arguments[0].textContent", idCell))
                .as("what a copy of the id cell takes")
                .isEqualTo(id);
        assertThat(idCell.findElement(By.cssSelector("[title]")).getDomAttribute("title"))
                .as("the id on hover")
                .isEqualTo(id);
        WebElement bizKeyCell = cells.get(1);
        assertThat(lines(bizKeyCell)).as("lines of the bizKey cell").isEqualTo(1);

        // the attempts column shows what the dead-letter list answers for this job
        String attempts = listed.get(0).path("attempts").asText();
        WebElement attemptsCell = cells.get(2);
        assertThat(attemptsCell.getText()).isEqualTo(attempts);
    }

    @Test
    void a_failed_biz_key_lookup_leaves_no_earlier_job_on_screen_and_an_empty_topic_is_not_sent() {
        String topic = "lookups-" + RUN;
        String bizKey = "lookup-" + RUN;
        Reply pushed = client.push("{\"topic\":\"" + topic + "\",\"delay\":1800000,\"bizKey\":\"" + bizKey + "\"}");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        openConsole();

        type("biz-key", bizKey);
        type("biz-topic", topic);
        browser.findElement(By.id("biz-find")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("job-facts"), bizKey));

        // a bizKey longer than any may be is refused: the job found before is not its answer
        type("biz-key", "k".repeat(129));
        browser.findElement(By.id("biz-find")).click();
        waiting()
                .withMessage(() -> "an error and no job on screen, page shows '"
                        + browser.findElement(By.id("job-result")).getText() + "'")
                .until(driver -> "error"
                                .equals(driver.findElement(By.id("message")).getDomAttribute("class"))
                        && driver.findElements(By.cssSelector("#job-result *")).isEmpty());

        // without a topic the look-up leaves the parameter out instead of sending it empty
        script("performance.clearResourceTimings()");
        type("biz-key", bizKey);
        browser.findElement(By.id("biz-topic")).clear();
        browser.findElement(By.id("biz-find")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("job-facts"), bizKey));
        List<String> lookups =
                fetched().stream().filter(url -> url.contains("/jobs?")).toList();
        assertThat(lookups).hasSize(1);
        assertThat(lookups.get(0)).contains("bizKey=" + bizKey).doesNotContain("topic");

        // a bizKey no job has: nothing found, and nothing of the job before
        type("biz-key", "nobody-" + RUN);
        browser.findElement(By.id("biz-find")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "no job"));
        assertThat(browser.findElements(By.cssSelector("#job-result *"))).isEmpty();
    }
}
