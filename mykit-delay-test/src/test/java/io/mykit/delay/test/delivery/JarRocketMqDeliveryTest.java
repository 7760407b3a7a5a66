package io.mykit.delay.test.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.test.brokers.TestRocketMq;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, without the broker-side libraries it no longer carries (docs/operations.md, "What the jar
 * carries"), still delivers to a real RocketMQ: started as {@code java -jar} against the test Redis and MariaDB.
 */
class JarRocketMqDeliveryTest {
    private static final Path JAR = Path.of("..", "mykit-delay-core", "target", "mykit-delay.jar");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Libraries the jar must not carry: the broker's RocksDB, the proxy's gRPC, exporters, OpenSSL natives. */
    private static final List<String> DROPPED = List.of(
            "rocketmq-rocksdb-",
            "grpc-",
            "opentelemetry-exporter-",
            "okhttp-",
            "kotlin-stdlib",
            "netty-tcnative-",
            "netty-codec-mqtt-",
            "netty-transport-rxtx-");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process gateway;
    private String database;

    @TempDir
    Path tempDir;

    @AfterEach
    void stop() throws InterruptedException {
        if (gateway != null) {
            gateway.destroy();
            if (!gateway.waitFor(30, TimeUnit.SECONDS)) {
                gateway.destroyForcibly();
            }
        }
        if (database != null) {
            TestServers.dropDatabase(database);
        }
    }

    @Test
    void jar_carries_none_of_the_dropped_libraries() throws IOException {
        assertThat(JAR)
                .as("the runnable jar; build mykit-delay-core first (mvn package)")
                .isRegularFile();
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            List<String> libs = jar.stream()
                    .map(entry -> entry.getName())
                    .filter(name -> name.startsWith("BOOT-INF/lib/"))
                    .map(name -> name.substring(13))
                    .toList();
            assertThat(libs)
                    .as("the gateway's own libraries are there")
                    .anyMatch(name -> name.startsWith("rocketmq-client-"));
            for (String dropped : DROPPED) {
                assertThat(libs).as("dropped: " + dropped).noneMatch(name -> name.startsWith(dropped));
            }
        }
    }

    @Test
    void jar_delivers_a_due_job_to_rocketmq() throws Exception {
        assertThat(JAR)
                .as("the runnable jar; build mykit-delay-core first (mvn package)")
                .isRegularFile();
        TestRocketMq rocketMq = TestRocketMq.start();
        String topic = "jar-" + UUID.randomUUID().toString().substring(0, 8);
        rocketMq.createTopic("DELAY_" + topic);
        TestServers.RedisEndpoint redis = TestServers.redis();
        database = "mykit_jar_" + UUID.randomUUID().toString().substring(0, 8);
        int port = TestServers.freePort();
        Path log = tempDir.resolve("gateway.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        gateway = new ProcessBuilder(
                        java.toString(),
                        "-jar",
                        JAR.toAbsolutePath().normalize().toString(),
                        "--server.port=" + port,
                        "--mykit.delay.embedded.enabled=false",
                        "--mykit.delay.http.warmup=0",
                        "--mykit.delay.redis.host=" + redis.host(),
                        "--mykit.delay.redis.port=" + redis.port(),
                        "--mykit.delay.redis.key-prefix=" + database,
                        "--spring.datasource.url=" + TestServers.jdbcUrl(database),
                        "--spring.datasource.username=" + TestServers.jdbcUser(),
                        "--spring.datasource.password=" + TestServers.jdbcPassword(),
                        "--mykit.delay.dispatch.routes[jar-*]=rocketmq",
                        "--mykit.delay.rocketmq.namesrv-addr=" + rocketMq.namesrvAddr(),
                        "--mykit.delay.rocketmq.topic-prefix=DELAY_")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        String base = "http://" + TestServers.LOCALHOST + ":" + port;
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    assertThat(gateway.isAlive())
                            .as("gateway exited; log:%n%s", Files.readString(log))
                            .isTrue();
                    return answers(base);
                });

        JsonNode pushed = call(
                "POST",
                base + "/push",
                "{\"topic\":\"" + topic + "\",\"subtopic\":\"close\","
                        + "\"bizKey\":\"order-1\",\"delay\":200,\"body\":\"close order 1\"}");
        String id = pushed.path("data").asText();
        Map<String, List<MessageExt>> got =
                RocketMqReader.read(rocketMq.namesrvAddr(), "DELAY_" + topic, 1, Duration.ofSeconds(30));
        assertThat(got).as("log:%n%s", Files.readString(log)).containsKey(id);
        assertThat(new String(got.get(id).get(0).getBody(), StandardCharsets.UTF_8))
                .isEqualTo("close order 1");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(call("GET", base + "/jobs/" + id, null)
                                .path("data")
                                .path("status")
                                .asText())
                        .isEqualTo("Finish"));
        assertThat(Files.readString(log))
                .as("no class missing at run time")
                .doesNotContain("NoClassDefFoundError")
                .doesNotContain("ClassNotFoundException");
    }

    private boolean answers(String base) throws InterruptedException {
        try {
            http.send(
                    HttpRequest.newBuilder(URI.create(base + "/jobs/none"))
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private JsonNode call(String method, String url, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as(method + " " + url + " -> " + response.body())
                .isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
