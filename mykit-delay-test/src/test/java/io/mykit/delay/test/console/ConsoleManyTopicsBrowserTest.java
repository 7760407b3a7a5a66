package io.mykit.delay.test.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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
 * The console with 20,000 topics, in a real headless Chromium: it asks for one page of 100 topic lines, so each answer
 * it reads stays small, pages with next and previous and filters by prefix, and polls every 10 s instead of every 2 s.
 */
class ConsoleManyTopicsBrowserTest {
    private static final int TOPICS = 20_000;
    private static final int PAGE = 100;
    /** What one page of 100 topic lines and the rest of an overview take, with room to spare. */
    private static final long MAX_ANSWER_BYTES = 32_000;

    @Gateway
    private static TestGateway gateway;

    private static HeadlessChromium chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        GatewayClient client = gateway.client();
        // one job in each topic, due in an hour, 1,000 per batch; names sort as their numbers do
        for (int start = 0; start < TOPICS; start += 1_000) {
            String batch = IntStream.range(start, start + 1_000)
                    .mapToObj(i -> "{\"topic\":\"t-" + String.format("%05d", i) + "\",\"delay\":3600000}")
                    .collect(Collectors.joining(",", "[", "]"));
            Reply reply = client.pushBatch(batch);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        }
        chromium = new HeadlessChromium("--window-size=1400,1300");
        browser = chromium.driver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    private static WebDriverWait waiting(int seconds) {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(seconds));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private static Object script(String js) {
        return ((JavascriptExecutor) browser).executeScript(js);
    }

    /** The page's GET /stats calls so far: url, start (ms since the page's start) and decoded answer size. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> statsCalls() {
        return (List<Map<String, Object>>) script("return performance.getEntriesByType('resource')"
                + ".filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname === '/stats')"
                + ".map(e => ({url: e.name, start: e.startTime, size: e.decodedBodySize}));");
    }

    private static List<String> topicsOnPage() {
        return browser.findElements(By.cssSelector("#topics tr[data-topic]")).stream()
                .map(row -> row.getDomAttribute("data-topic"))
                .toList();
    }

    private static void awaitRange(String text) {
        waiting(30)
                .withMessage(() -> "'" + text + "' above the topics, page says '"
                        + browser.findElement(By.id("topics-range")).getText() + "'")
                .until(ExpectedConditions.textToBe(By.id("topics-range"), text));
    }

    @Test
    void with_twenty_thousand_topics_the_console_reads_a_page_of_them_and_polls_less_often() {
        browser.get(gateway.baseUrl() + "/console");
        awaitRange("topics 1–100 of 20,000");
        assertThat(topicsOnPage()).hasSize(PAGE).startsWith("t-00000").endsWith("t-00099");
        assertThat(browser.findElement(By.cssSelector("#totals .pending")).getText())
                .as("the totals cover every topic")
                .isEqualTo("20000");

        // two polls: each a bounded answer, the second 10 s after the first
        waiting(40)
                .withMessage("a second poll of /stats")
                .until(driver -> statsCalls().size() >= 2);
        List<Map<String, Object>> polls = statsCalls();
        for (Map<String, Object> call : polls) {
            assertThat(call.get("url").toString())
                    .as("the stats the page asks for")
                    .contains("limit=" + PAGE);
            assertThat(((Number) call.get("size")).longValue())
                    .as("bytes of the answer to %s", call.get("url"))
                    .isPositive()
                    .isLessThan(MAX_ANSWER_BYTES);
        }
        double gap = ((Number) polls.get(1).get("start")).doubleValue()
                - ((Number) polls.get(0).get("start")).doubleValue();
        assertThat(gap).as("ms between two polls").isGreaterThanOrEqualTo(9_000);

        browser.findElement(By.id("topics-next")).click();
        awaitRange("topics 101–200 of 20,000");
        assertThat(topicsOnPage()).startsWith("t-00100").endsWith("t-00199");
        browser.findElement(By.id("topics-next")).click();
        awaitRange("topics 201–300 of 20,000");
        browser.findElement(By.id("topics-prev")).click();
        awaitRange("topics 101–200 of 20,000");
        browser.findElement(By.id("topics-prev")).click();
        awaitRange("topics 1–100 of 20,000");
        assertThat(browser.findElement(By.id("topics-prev")).isEnabled()).isFalse();

        WebElement filter = browser.findElement(By.id("topic-filter"));
        filter.sendKeys("t-1999");
        awaitRange("topics 1–10 of 10");
        assertThat(topicsOnPage()).hasSize(10).allMatch(topic -> topic.startsWith("t-1999"));
        assertThat(browser.findElement(By.id("topics-next")).isEnabled()).isFalse();
    }

    /** The route the console pages: without parameters the answer of before, with them one page of a prefix. */
    @Test
    void stats_answer_the_first_thousand_lines_without_paging_parameters_and_one_page_with_them() {
        GatewayClient client = gateway.client();
        JsonNode whole = client.get("/stats").data();
        assertThat(whole.path("topics")).hasSize(1_000);
        assertThat(whole.path("topicCount").asInt()).isEqualTo(TOPICS);
        assertThat(whole.path("topicsCut").asBoolean()).isTrue();
        assertThat(whole.path("moreTopics").asInt()).isEqualTo(TOPICS - 1_000);

        JsonNode page = client.get("/stats?prefix=t-1999&after=t-19994&limit=3").data();
        assertThat(page.findValuesAsText("topic")).containsExactly("t-19995", "t-19996", "t-19997");
        assertThat(page.path("topicCount").asInt()).isEqualTo(10);
        assertThat(page.path("moreTopics").asInt()).isEqualTo(2);
        assertThat(page.path("pending").asLong()).as("totals of every topic").isEqualTo(TOPICS);

        Reply refused = client.get("/stats?limit=0");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().toString()).contains("limit");
    }
}
