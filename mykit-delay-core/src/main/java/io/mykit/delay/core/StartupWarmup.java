package io.mykit.delay.core;

import org.apache.catalina.Service;
import org.apache.catalina.connector.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.SmartLifecycle;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code mykit.delay.http.warmup}: a freshly started JVM runs its first thousands of requests interpreted and compiles
 * them on the cores the requests need, so the first clients fall seconds behind. Before the web server opens its port
 * (its start phase is {@code DEFAULT_PHASE - 2048}) and after the journal writers run ({@link GatewayLifecycle}), this
 * sends the gateway's own requests through a loopback connector added to the same Tomcat service: push, lookup, an empty
 * poll, a finish refused as not due, cancel, in topic {@value #TOPIC}. Every pushed job is cancelled again (journaled
 * Delete); the timers have not started, so none is handed over. The jobs carry bizKey {@value #TOPIC}, and a last
 * cancel by that bizKey takes any whose own cancel failed or whose push answer was lost. The connector is removed
 * before the port opens.
 */
final class StartupWarmup implements SmartLifecycle {
    static final String TOPIC = "mykit-delay-warmup";
    private static final Logger log = LoggerFactory.getLogger(StartupWarmup.class);
    /** Between the journal writers' start and the web server's. */
    static final int PHASE = GatewayLifecycle.PHASE + 1024;
    private static final int THREADS = 8;
    private static final Pattern ID = Pattern.compile("\"data\":\"([^\"]+)\"");

    private final Supplier<WebServer> webServer;
    private final Duration duration;
    private volatile boolean running;

    StartupWarmup(Supplier<WebServer> webServer, Duration duration) {
        this.webServer = webServer;
        this.duration = duration;
    }

    @Override
    public void start() {
        running = true;
        if (duration.isZero() || !(webServer.get() instanceof TomcatWebServer tomcat)) {
            return;
        }
        Service service = tomcat.getTomcat().getService();
        Connector loopback = new Connector("HTTP/1.1");
        loopback.setPort(0);
        loopback.setProperty("address", "127.0.0.1");
        service.addConnector(loopback);
        try {
            warmUp(loopback.getLocalPort());
        } finally {
            service.removeConnector(loopback);
            try {
                loopback.destroy();
            } catch (Exception e) {
                log.debug("warm-up connector not destroyed cleanly", e);
            }
        }
    }

    private void warmUp(int port) {
        long started = System.nanoTime();
        long end = started + duration.toNanos();
        AtomicLong calls = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        String base = "http://127.0.0.1:" + port;
        List<Thread> threads = new ArrayList<>(THREADS);
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < end) {
                    try {
                        round(client, base, calls);
                    } catch (IOException | RuntimeException e) {
                        failures.incrementAndGet();
                        pause();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "mykit-warmup-" + t);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            try {
                thread.join(duration.toMillis() + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        cancelLeftovers(client, base);
        log.info("Warmed up in {} ms before opening the port: {} calls in topic {}, {} rounds failed",
                (System.nanoTime() - started) / 1_000_000, calls.get(), TOPIC, failures.get());
    }

    /** What a producer and a consumer send: push, lookup, an empty poll, an early finish, cancel. */
    private static void round(HttpClient client, String base, AtomicLong calls) throws IOException, InterruptedException {
        HttpResponse<String> pushed = client.send(HttpRequest.newBuilder(URI.create(base + "/push"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString("{\"topic\":\"" + TOPIC + "\",\"bizKey\":\"" + TOPIC
                        + "\",\"delay\":3600000,\"body\":\"warm-up of a freshly started gateway\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        calls.incrementAndGet();
        Matcher id = ID.matcher(pushed.body());
        if (pushed.statusCode() != 200 || !id.find()) {
            throw new IllegalStateException("push answered " + pushed.statusCode());
        }
        String jobId = id.group(1);
        get(client, base + "/jobs/" + jobId);
        get(client, base + "/get/" + TOPIC + "?timeout=0");
        get(client, base + "/finish?jobId=" + jobId);
        HttpResponse<String> cancelled = get(client, base + "/delete?jobId=" + jobId);
        calls.addAndGet(4);
        if (cancelled.statusCode() != 200) {
            throw new IllegalStateException("cancel of warm-up job " + jobId + " answered " + cancelled.statusCode());
        }
    }

    /** One cancel of every warm-up job still pending, by their bizKey: none is left to be delivered in an hour. */
    private static void cancelLeftovers(HttpClient client, String base) {
        try {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(base + "/jobs?bizKey=" + TOPIC
                    + "&topic=" + TOPIC)).timeout(Duration.ofSeconds(30)).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200 || answer.body().contains("\"refused\":{\"")) {
                log.warn("Warm-up jobs in topic {} may be left pending: cancel by bizKey answered {} {}", TOPIC,
                        answer.statusCode(), answer.body());
            }
        } catch (IOException e) {
            log.warn("Warm-up jobs in topic {} may be left pending: {}", TOPIC, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
