package io.mykit.delay.test.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * In a real headless Chromium: a page of another origin that puts the console in a frame gets no console there
 * (X-Frame-Options and the Content-Security-Policy's frame-ancestors), while the console and Swagger UI, under that
 * policy, still work when opened directly.
 */
class ConsoleFramingBrowserTest {
    @Gateway
    private static TestGateway gateway;

    private static HeadlessChromium chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
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
        return new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    @Test
    void a_page_of_another_origin_that_frames_the_console_gets_no_console() throws Exception {
        HttpServer framing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] page = ("<!doctype html><html><head><title>framing</title></head><body>"
                        + "<iframe id='console' width='900' height='600' src='" + gateway.baseUrl() + "/console'"
                        + " onload=\"document.title='frame loaded'\"></iframe></body></html>")
                .getBytes(StandardCharsets.UTF_8);
        framing.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(page);
            }
        });
        framing.start();
        try {
            browser.get("http://127.0.0.1:" + framing.getAddress().getPort() + "/");
            waiting().until(ExpectedConditions.titleIs("frame loaded"));
            browser.switchTo().frame("console");
            assertThat(browser.findElements(By.id("topics")))
                    .as("the console's table in the frame")
                    .isEmpty();
            assertThat(browser.getTitle()).isNotEqualTo("mykit-delay console");
        } finally {
            browser.switchTo().defaultContent();
            framing.stop(0);
        }
    }

    @Test
    void the_console_and_swagger_ui_work_under_their_policy() throws Exception {
        HttpResponse<String> console = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/console"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(console.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(console.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy).contains("frame-ancestors 'none'"));

        browser.get(gateway.baseUrl() + "/console");
        assertThat(browser.getTitle()).isEqualTo("mykit-delay console");
        waiting().until(ExpectedConditions.textMatches(By.id("updated"), java.util.regex.Pattern.compile("^updated ")));

        browser.get(gateway.baseUrl() + "/swagger-ui/index.html");
        waiting()
                .withMessage("Swagger UI lists the operations")
                .until(driver -> driver.findElements(By.cssSelector(".opblock")).size() > 5);
    }
}
