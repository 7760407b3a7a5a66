package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.gateway.TestGateway;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
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
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless Chromium with tenants configured: without a token it shows nothing and asks for one;
 * with a tenant's token (kept in sessionStorage) it shows that tenant's topics only.
 */
class TenantConsoleBrowserTest {
    private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
    private static final String RUN = UUID.randomUUID().toString().substring(0, 6);

    private static TestGateway gateway;
    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void start() throws Exception {
        gateway = TestGateway.start(
                "mykit.delay.tenants.orders.token=orders-token",
                "mykit.delay.tenants.orders.topics=order-*",
                "mykit.delay.tenants.mail.token=mail-token",
                "mykit.delay.tenants.mail.topics=mail-*");
        profile = Files.createTempDirectory("tenant-console-chromium");
        ChromeOptions options = new ChromeOptions();
        boolean debianChromium = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (debianChromium) {
            options.setBinary(CHROMIUM.toFile());
        }
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--window-size=1400,1300");
        browser = debianChromium
                ? new ChromeDriver(
                        new ChromeDriverService.Builder()
                                .usingDriverExecutable(CHROMEDRIVER.toFile())
                                .usingAnyFreePort()
                                .build(),
                        options)
                // no skipping: Selenium Manager finds (or downloads) Chrome and its driver, or this fails loudly
                : new ChromeDriver(options);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (gateway != null) {
            gateway.close();
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
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private static List<String> topicsOnPage() {
        return browser.findElements(By.cssSelector("#topics tr[data-topic]")).stream()
                .map(row -> row.getDomAttribute("data-topic"))
                .toList();
    }

    @Test
    void the_console_asks_for_a_token_and_shows_only_that_tenants_topics() {
        TenantHttp http = new TenantHttp(gateway.baseUrl());
        String orders = "order-" + RUN;
        String mail = "mail-" + RUN;
        http.push("orders-token", orders, "k", 1_800_000);
        http.push("mail-token", mail, "k", 1_800_000);

        browser.get(gateway.baseUrl() + "/console");
        waiting()
                .until(ExpectedConditions.textMatches(
                        By.id("updated"), Pattern.compile("stats unavailable: token required")));
        assertThat(topicsOnPage()).isEmpty();

        WebElement token = browser.findElement(By.id("tenant-token"));
        token.sendKeys("orders-token");
        browser.findElement(By.id("tenant-save")).click();
        waiting()
                .withMessage("the orders tenant's topic on the page")
                .until(driver -> topicsOnPage().contains(orders));
        waiting().until(ExpectedConditions.textMatches(By.id("updated"), Pattern.compile("^updated ")));
        assertThat(topicsOnPage()).allMatch(topic -> topic.startsWith("order-"));
        assertThat(browser.findElement(By.id("tenant-state")).getText()).isEqualTo("token set for this tab");
        Object kept = ((JavascriptExecutor) browser)
                .executeScript("return sessionStorage.getItem('mykit-delay.tenant-token')");
        assertThat(kept).isEqualTo("orders-token");

        // another tenant's token: the other view, and none of the first
        browser.findElement(By.id("tenant-token")).sendKeys("mail-token");
        browser.findElement(By.id("tenant-save")).click();
        waiting()
                .withMessage("the mail tenant's topic on the page")
                .until(driver -> topicsOnPage().contains(mail));
        assertThat(topicsOnPage()).doesNotContain(orders).allMatch(topic -> topic.startsWith("mail-"));
    }

    private static List<String> totals() {
        return browser.findElements(By.cssSelector("#totals th.num")).stream()
                .map(WebElement::getText)
                .toList();
    }

    /** Totals the page does not know (no token yet, or one forgotten) read as a dash, never as a count of 0. */
    @Test
    void totals_show_a_dash_until_a_token_reads_them() {
        TenantHttp http = new TenantHttp(gateway.baseUrl());
        String orders = "order-totals-" + RUN;
        http.push("orders-token", orders, "k", 1_800_000);

        browser.get(gateway.baseUrl() + "/console");
        ((JavascriptExecutor) browser).executeScript("sessionStorage.clear()");
        browser.navigate().refresh();
        waiting()
                .until(ExpectedConditions.textMatches(
                        By.id("updated"), Pattern.compile("stats unavailable: token required")));
        assertThat(totals()).as("totals without a token").containsOnly("–");
        assertThat(browser.findElement(By.id("overdue")).getText()).isEqualTo("–");

        browser.findElement(By.id("tenant-token")).sendKeys("orders-token");
        browser.findElement(By.id("tenant-save")).click();
        waiting()
                .withMessage("the orders tenant's topic on the page")
                .until(driver -> topicsOnPage().contains(orders));
        assertThat(totals()).as("totals with the token").hasSize(4).allMatch(total -> total.matches("\\d+\\+?"));

        // the token forgotten: the tenant's topics and totals leave the page with it
        browser.findElement(By.id("tenant-forget")).click();
        waiting()
                .withMessage(() -> "dashes for totals, page shows " + totals())
                .until(driver -> totals().stream().allMatch("–"::equals));
        assertThat(topicsOnPage()).isEmpty();
    }
}
