package io.mykit.delay.test.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.mykit.delay.test.gateway.AdminCanaries;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.RawHttp;
import io.mykit.delay.test.gateway.TestGateway;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A gateway without tenants and without an admin token, and the web pages a browser on its host shows: a page of
 * another origin cannot cancel or reserve a job through the GET routes, a page on a rebound name cannot read jobs, a
 * link opened from outside the browser runs no admin change, and HEAD runs nothing. curl-like callers keep every route.
 */
class ForeignPageBrowserTest {
    /** What Chromium sends as its User-Agent; a page cannot change it. */
    private static final String CHROME_UA =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

    @Gateway({"mykit.delay.timer.sweep-interval=100ms", "mykit.delay.pull.poll-interval=50ms"})
    private static TestGateway gateway;

    private static GatewayClient client;
    private static HeadlessChromium chromium;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        client = gateway.client();
        port = URI.create(gateway.baseUrl()).getPort();
        chromium = new HeadlessChromium();
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    private static WebDriver browser() {
        return chromium.driver();
    }

    private static String topic(String what) {
        return what + "-" + UUID.randomUUID().toString().substring(0, 6);
    }

    private static String push(GatewayClient to, String topic, long delayMs, String bizKey) {
        Reply reply = to.push(
                "{\"topic\":\"" + topic + "\",\"delay\":" + delayMs + ",\"bizKey\":\"" + bizKey + "\",\"body\":\"b\"}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.data().asText();
    }

    private static String stage(String id) {
        return client.lookup(id).data().path("stage").asText();
    }

    /** A job due now, waiting in its topic's ready list for a puller. */
    private static String readyJob(String topic) {
        String id = push(client, topic, 0, "ready");
        new WebDriverWait(browser(), Duration.ofSeconds(20))
                .withMessage("job " + id + " in the ready list")
                .until(driver -> stage(id).equals("READY"));
        return id;
    }

    @Test
    void images_on_a_page_of_another_origin_neither_cancel_nor_reserve_a_job() throws Exception {
        String topic = topic("img");
        String waiting = push(client, topic, 86_400_000L, "waiting");
        String ready = readyJob(topic);
        String page = "<!doctype html><html><head><title>loading</title></head><body><script>"
                + "let answered = 0;"
                + "for (const host of ['127.0.0.1', 'localhost']) {"
                + "  for (const path of ['/delete?jobId=" + waiting + "', '/get/" + topic + "?ttr=3600000']) {"
                + "    const image = new Image();"
                + "    image.onload = image.onerror = () => { if (++answered === 4) document.title = 'done'; };"
                + "    image.src = 'http://' + host + ':" + port + "' + path;"
                + "  }"
                + "}</script></body></html>";
        HttpServer foreign = serve(page);
        try {
            browser().get("http://127.0.0.1:" + foreign.getAddress().getPort() + "/");
            new WebDriverWait(browser(), Duration.ofSeconds(20))
                    .withMessage("the page's four images answered")
                    .until(driver -> "done".equals(driver.getTitle()));
        } finally {
            foreign.stop(0);
        }
        assertThat(stage(waiting)).as("the job the page tried to cancel").isEqualTo("DELAYED");
        assertThat(stage(ready)).as("the job the page tried to reserve").isEqualTo("READY");
    }

    @Test
    void a_page_on_a_name_rebound_to_this_host_cannot_read_jobs_by_bizkey() throws Exception {
        String bizKey = "rebound-" + UUID.randomUUID().toString().substring(0, 6);
        String id = push(client, topic("rebind"), 86_400_000L, bizKey);
        String target = "/jobs?bizKey=" + bizKey;

        RawHttp.Answer rebound = RawHttp.send(
                "127.0.0.1",
                port,
                "GET",
                target,
                Map.of("Host", "evil.example:" + port, "User-Agent", CHROME_UA, "Accept", "*/*"),
                null);
        assertThat(rebound.status()).as(rebound.body()).isEqualTo(403);
        assertThat(rebound.body()).doesNotContain(id).contains("mykit.delay.http.allowed-hosts");

        // the same browser naming the gateway by a loopback name, and a service calling it by its service name
        RawHttp.Answer local = RawHttp.send(
                "127.0.0.1",
                port,
                "GET",
                target,
                Map.of("Host", "localhost:" + port, "User-Agent", CHROME_UA, "Accept", "*/*"),
                null);
        assertThat(local.body()).as("a browser on localhost").contains(id);
        RawHttp.Answer service = RawHttp.send(
                "127.0.0.1",
                port,
                "GET",
                target,
                Map.of("Host", "delay-gateway:" + port, "User-Agent", "curl/8"),
                null);
        assertThat(service.body()).as("a program calling by a service name").contains(id);
    }

    /**
     * The page of a name rebound to this host, in Chromium: its server hands every other path on to the gateway with
     * the browser's headers untouched, as the rebound name's address would be the gateway's own.
     */
    @Test
    void a_rebound_page_in_chromium_reads_nothing() throws Exception {
        String bizKey = "rebound-" + UUID.randomUUID().toString().substring(0, 6);
        String id = push(client, topic("rebind"), 86_400_000L, bizKey);
        String page = "<!doctype html><html><head><title>loading</title></head><body><script>"
                + "fetch('/jobs?bizKey=" + bizKey + "').then(r => r.text().then(t => {"
                + "  document.title = r.status + (t.includes('" + id + "') ? ' read' : ' unread'); }));"
                + "</script></body></html>";
        HttpServer rebound = serve(page);
        rebound.createContext("/jobs", exchange -> {
            Map<String, String> headers = new java.util.LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("Connection") && !name.equalsIgnoreCase("Accept-Encoding")) {
                    headers.put(name, values.get(0));
                }
            });
            RawHttp.Answer answer = RawHttp.send(
                    "127.0.0.1",
                    port,
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().toString(),
                    headers,
                    null);
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        try {
            browser()
                    .get("http://" + HeadlessChromium.REBOUND + ":"
                            + rebound.getAddress().getPort() + "/");
            new WebDriverWait(browser(), Duration.ofSeconds(20))
                    .withMessage("the page's fetch answered")
                    .until(driver -> !"loading".equals(driver.getTitle()));
            assertThat(browser().getTitle()).isEqualTo("403 unread");
        } finally {
            rebound.stop(0);
        }
    }

    @Test
    void head_on_a_get_route_that_changes_state_changes_nothing() throws Exception {
        String topic = topic("head");
        String waiting = push(client, topic, 86_400_000L, "waiting");
        String ready = readyJob(topic);

        for (String target : new String[] {
            "/get/" + topic + "?ttr=3600000", "/get/" + topic + "/batch?count=5&ttr=3600000", "/delete?jobId=" + waiting
        }) {
            RawHttp.Answer head = RawHttp.send("127.0.0.1", port, "HEAD", target, Map.of(), null);
            assertThat(head.status()).as("HEAD " + target).isEqualTo(405);
            assertThat(head.header("Allow")).as("HEAD " + target).contains("GET");
        }
        assertThat(stage(ready)).as("after HEAD /get").isEqualTo("READY");
        assertThat(stage(waiting)).as("after HEAD /delete").isEqualTo("DELAYED");

        // the original clients' GETs still work from programs
        assertThat(client.get(topic, 60_000, 0).data().path("id").asText()).isEqualTo(ready);
        assertThat(client.finish(ready).status()).isEqualTo(200);
        assertThat(client.delete(waiting).status()).isEqualTo(200);
        assertThat(client.lookup(waiting).data().path("status").asText()).isEqualTo("Delete");
    }

    /**
     * A link opened from outside the browser (typed, from a mail or a chat) arrives as a navigation with Sec-Fetch-Site
     * none: it runs no admin call that changes state, and the read-only ones still open.
     */
    @Test
    void a_link_opened_in_the_browser_runs_no_admin_change(@Gateway TestGateway own) throws Exception {
        AdminCanaries canaries = AdminCanaries.seed(own, topic("link"));
        String pending = push(own.client(), topic("link"), 86_400_000L, "pending");

        browser().get(own.baseUrl() + "/clearAll?cancel=true");
        assertThat(browser().getPageSource()).contains("403");
        browser().get(own.baseUrl() + "/reStore?expire=true");
        assertThat(browser().getPageSource()).contains("403");

        assertThat(canaries.changes()).as("what the links changed").isEmpty();
        assertThat(own.client().lookup(pending).data().path("stage").asText()).isEqualTo("DELAYED");

        browser().get(own.baseUrl() + "/cluster");
        assertThat(browser().getPageSource()).as("a read-only admin page").contains("standalone");
        // a script on this host still clears
        assertThat(own.client().get("/clearAll?cancel=true").status()).isEqualTo(200);
        assertThat(own.client().lookup(pending).data().path("status").asText()).isEqualTo("Delete");
    }

    private static HttpServer serve(String page) throws Exception {
        byte[] bytes = page.getBytes(StandardCharsets.UTF_8);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return server;
    }
}
