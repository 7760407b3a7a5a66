package io.mykit.delay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.util.JobIdGenerator;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServer;

/**
 * The least a delay gateway on Tomcat can do per call, for scenario 14: the same embedded Tomcat (Spring Boot's
 * factory, its defaults) answering the bench's calls from a {@link DelayQueue} in this JVM, with no Redis, no journal
 * and no durability. {@code POST /push} parses the job with Jackson and queues it, {@code GET /get/{topic}} waits on
 * the topic's queue up to its {@code timeout} on the request thread, {@code GET /finish} only answers. What the load
 * driver measures against it is what this machine gives any HTTP gateway with these clients: an upper bound for the
 * real one.
 */
final class FloorServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] OK =
            "{\"success\":true,\"code\":200,\"message\":\"ok\",\"data\":null}".getBytes(StandardCharsets.US_ASCII);

    /** A queued job, due at {@code createTime + delay}. */
    private record Queued(String id, String topic, long createTime, long delay, String body) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(createTime + delay - System.currentTimeMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Queued that = (Queued) other;
            return Long.compare(createTime + delay, that.createTime + that.delay);
        }
    }

    /** The answer of a GET that found a job: the fields the load driver reads. */
    private record JobReply(String id, String topic, long createTime, long delay, int priority, String body) {}

    private record Reply(boolean success, int code, String message, Object data) {}

    private final Map<String, DelayQueue<Queued>> topics = new ConcurrentHashMap<>();
    private final JobIdGenerator ids = new JobIdGenerator(System::currentTimeMillis);
    private final WebServer server;

    private FloorServer() {
        TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory(0);
        server = factory.getWebServer(
                context -> context.addServlet("floor", new Calls()).addMapping("/*"));
        server.start();
    }

    static FloorServer start() {
        return new FloorServer();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getPort();
    }

    /**
     * Queues {@code count} jobs due in 30 days straight into {@code topic}: pending work, as the real bench prefills.
     */
    void prefill(String topic, int count, int bodyBytes) {
        String body = "x".repeat(bodyBytes);
        DelayQueue<Queued> queue = queue(topic);
        long now = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            queue.add(new Queued(ids.next(), topic, now, LoadDriver.FAR_DELAY_MS, body));
        }
    }

    /** Drops every queued job (between parts of the scenario, so the closed-loop pushes do not pile up). */
    void clear() {
        topics.clear();
    }

    private DelayQueue<Queued> queue(String topic) {
        return topics.computeIfAbsent(topic, t -> new DelayQueue<>());
    }

    @Override
    public void close() {
        server.stop();
    }

    private final class Calls extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String path = request.getRequestURI();
            response.setContentType("application/json");
            if ("POST".equals(request.getMethod()) && "/push".equals(path)) {
                JsonNode job = JSON.readTree(request.getInputStream());
                String topic = job.path("topic").asText();
                String id = ids.next();
                queue(topic)
                        .add(new Queued(
                                id,
                                topic,
                                System.currentTimeMillis(),
                                job.path("delay").asLong(),
                                job.path("body").asText()));
                write(response, JSON.writeValueAsBytes(new Reply(true, 200, "ok", id)));
            } else if (path.startsWith("/get/")) {
                long timeoutMs = Long.parseLong(request.getParameter("timeout"));
                Queued job;
                try {
                    job = queue(path.substring("/get/".length())).poll(timeoutMs, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    job = null;
                }
                Object data = job == null
                        ? null
                        : new JobReply(job.id(), job.topic(), job.createTime(), job.delay(), 0, job.body());
                write(response, JSON.writeValueAsBytes(new Reply(true, 200, "ok", data)));
            } else if (path.equals("/finish")) {
                write(response, OK);
            } else {
                response.sendError(404);
            }
        }

        private void write(HttpServletResponse response, byte[] body) throws IOException {
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }
}
