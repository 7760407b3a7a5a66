package io.mykit.delay.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.core.embedded.RedisProcess;
import io.mykit.delay.test.support.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar mykit-delay.jar} with no configuration is the first thing a user runs: the packaged jar must start
 * on its embedded Redis and H2 journal, serve the whole push/get/finish path, and take its Redis down with it.
 */
class EmbeddedDefaultJarTest {

    private static final Path JAR = Path.of("..", "mykit-delay-core", "target", "mykit-delay.jar");
    private static final Pattern EMBEDDED_REDIS_LINE =
            Pattern.compile("Embedded stores started: Redis 127\\.0\\.0\\.1:(\\d+)");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Gateway> gateways = new ArrayList<>();

    @TempDir
    Path tempDir;

    @AfterEach
    void killLeftovers() {
        // A failed test must not leave a gateway or its Redis behind, whatever state it stopped in.
        for (Gateway gateway : gateways) {
            gateway.process.destroyForcibly();
            gateway.redisChildren.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void jar_with_no_configuration_serves_push_get_finish_and_stops_its_redis() throws Exception {
        Gateway gateway = start(tempDir.resolve("data"));

        JsonNode pushed =
                call("POST", gateway, "/push", "{\"topic\":\"embedded-smoke\",\"delay\":0,\"body\":\"hello\"}");
        assertThat(pushed.path("success").asBoolean()).as(pushed.toString()).isTrue();
        assertThat(pushed.path("code").asInt()).isEqualTo(200);
        assertThat(pushed.path("message").asText()).isEqualTo("ok");
        String jobId = pushed.path("data").asText();
        assertThat(jobId).isNotBlank();

        JsonNode reserved = call("GET", gateway, "/get/embedded-smoke?ttr=30000&timeout=5000", null);
        assertThat(reserved.path("success").asBoolean()).as(reserved.toString()).isTrue();
        assertThat(reserved.path("data").path("id").asText()).isEqualTo(jobId);
        assertThat(reserved.path("data").path("body").asText()).isEqualTo("hello");

        JsonNode finished = call("GET", gateway, "/finish?jobId=" + jobId, null);
        assertThat(finished.path("success").asBoolean()).as(finished.toString()).isTrue();

        // The journal writes state changes in batches: Finish shows up a moment later.
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(call("GET", gateway, "/jobs/" + jobId, null)
                                .path("data")
                                .path("status")
                                .asText())
                        .isEqualTo("Finish"));

        gateway.stop();
        assertRedisGone(gateway);
    }

    @Test
    void job_pushed_before_kill_9_is_there_after_restart_and_the_orphan_redis_is_stopped() throws Exception {
        Path dataDir = tempDir.resolve("data");
        Gateway first = start(dataDir);
        String jobId = call(
                        "POST", first, "/push", "{\"topic\":\"embedded-restart\",\"delay\":600000,\"body\":\"kept\"}")
                .path("data")
                .asText();
        assertThat(jobId).isNotBlank();

        first.process.destroyForcibly();
        assertThat(first.process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .isTrue();
        assertThat(RedisProcess.answers(RedisProcess.HOST, first.redisPort))
                .as("a kill -9 leaves the Redis child running")
                .isTrue();

        Gateway second = start(dataDir);
        assertThat(second.redisPort).as("a fresh port each start").isNotEqualTo(first.redisPort);
        assertRedisGone(first);
        JsonNode job = call("GET", second, "/jobs/" + jobId, null).path("data");
        assertThat(job.path("id").asText()).isEqualTo(jobId);
        assertThat(job.path("body").asText()).isEqualTo("kept");
        // The journal row committed before the push answered (WaitPut, or Delay if its batched update made it)...
        assertThat(job.path("status").asText()).isIn("WaitPut", "Delay");
        // ...and Redis still holds the job: the orphan wrote its AOF when stopped, and the new Redis loaded it.
        assertThat(job.path("stage").asText()).as(job.toString()).isEqualTo("DELAYED");

        second.stop();
        assertRedisGone(second);
    }

    private Gateway start(Path dataDir) throws Exception {
        assertThat(JAR)
                .as("the runnable jar; build mykit-delay-core first (mvn package)")
                .isRegularFile();
        int port = TestServers.freePort();
        Path log = tempDir.resolve("gateway-" + gateways.size() + ".log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // as the README's first command starts it
        Process process = new ProcessBuilder(
                        java.toString(),
                        "-XX:MaxGCPauseMillis=10",
                        "-jar",
                        JAR.toAbsolutePath().normalize().toString(),
                        "--server.port=" + port,
                        "--mykit.delay.embedded.data-dir=" + dataDir)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Gateway gateway = new Gateway(process, port, log);
        gateways.add(gateway);
        gateway.awaitAnswering();
        return gateway;
    }

    private JsonNode call(String method, Gateway gateway, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).timeout(Duration.ofSeconds(30));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as(method + " " + path + " -> " + response.body())
                .isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static void assertRedisGone(Gateway gateway) {
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(RedisProcess.answers(RedisProcess.HOST, gateway.redisPort))
                    .as("embedded Redis on port %d still answers", gateway.redisPort)
                    .isFalse();
            assertThat(gateway.redisChildren).as("embedded Redis process").noneMatch(ProcessHandle::isAlive);
        });
    }

    /** One gateway child JVM, its HTTP port, its log and the Redis it started. */
    private final class Gateway {

        final Process process;
        final int port;
        final Path log;
        int redisPort;
        List<ProcessHandle> redisChildren = List.of();

        Gateway(Process process, int port, Path log) {
            this.process = process;
            this.port = port;
            this.log = log;
        }

        String baseUrl() {
            return "http://" + TestServers.LOCALHOST + ":" + port;
        }

        void awaitAnswering() {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250)).until(() -> {
                assertThat(process.isAlive())
                        .as("gateway exited with %s; log:%n%s", exitCode(), logText())
                        .isTrue();
                return answers();
            });
            Matcher line = EMBEDDED_REDIS_LINE.matcher(logText());
            assertThat(line.find())
                    .as("no embedded-Redis line in the log:%n%s", logText())
                    .isTrue();
            redisPort = Integer.parseInt(line.group(1));
            redisChildren = process.descendants()
                    .filter(child -> child.info()
                            .command()
                            .map(command -> command.contains("redis"))
                            .orElse(false))
                    .toList();
            assertThat(redisChildren).as("the gateway's redis-server child").isNotEmpty();
        }

        /** SIGTERM, as a service manager would stop it. */
        void stop() throws InterruptedException {
            process.destroy();
            assertThat(process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("gateway did not stop within %s; log:%n%s", STOP_TIMEOUT, logText())
                    .isTrue();
        }

        // Any HTTP answer, even a 404, means the server is up.
        private boolean answers() throws InterruptedException {
            try {
                http.send(
                        HttpRequest.newBuilder(URI.create(baseUrl() + "/jobs/none"))
                                .timeout(Duration.ofSeconds(5))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        private Optional<Integer> exitCode() {
            return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
        }

        private String logText() {
            try {
                return Files.readString(log, StandardCharsets.ISO_8859_1);
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }
}
