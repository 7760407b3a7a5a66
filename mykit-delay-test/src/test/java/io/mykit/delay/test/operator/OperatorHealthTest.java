package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * /actuator/health, its liveness and readiness groups and /actuator/info on real servers: the shared Redis and MariaDB,
 * an ActiveMQ broker in this JVM, a private Redis the test stops, a ZooKeeper TestingServer.
 */
class OperatorHealthTest {
    private static final String TOKEN = "operator-test-token";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static TestActiveMq broker;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        broker = TestActiveMq.start();
        gateway = TestGateway.start(
                "mykit.delay.dispatch.routes[ops-amq-*]=activemq",
                "mykit.delay.activemq.broker-url=" + broker.brokerUrl(),
                "mykit.delay.activemq.send-timeout=1s",
                "mykit.delay.admin.token=" + TOKEN);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Reply health(TestGateway on, String path) {
        return on.client().get("/actuator/health" + path);
    }

    @Test
    void health_is_up_and_names_every_component() {
        Reply reply = health(gateway, "");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode components = reply.json().path("components");
        assertThat(reply.json().path("status").asText()).isEqualTo("UP");
        for (String name : new String[] {"redis", "db", "activemq", "restore", "livenessState", "readinessState"}) {
            assertThat(components.path(name).path("status").asText())
                    .as(name + " in " + reply)
                    .isEqualTo("UP");
        }
        assertThat(components.has("rocketmq")).as("no route uses RocketMQ").isFalse();
        assertThat(components.has("zookeeper"))
                .as("standalone has no ZooKeeper")
                .isFalse();
        assertThat(health(gateway, "/liveness").status()).isEqualTo(200);
        Reply readiness = health(gateway, "/readiness");
        assertThat(readiness.status()).as(readiness.toString()).isEqualTo(200);
        assertThat(readiness.json().path("components").has("redis")).isTrue();
        assertThat(readiness.json().path("components").has("db")).isTrue();
    }

    @Test
    void a_stopped_broker_turns_health_503_naming_activemq() {
        broker.stop();
        try {
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> health(gateway, "").status() == 503);
            Reply reply = health(gateway, "");
            assertThat(reply.json().path("status").asText()).isEqualTo("DOWN");
            assertThat(reply.json()
                            .path("components")
                            .path("activemq")
                            .path("status")
                            .asText())
                    .isEqualTo("DOWN");
            assertThat(reply.json()
                            .path("components")
                            .path("redis")
                            .path("status")
                            .asText())
                    .isEqualTo("UP");
            assertThat(reply.json().path("components").path("db").path("status").asText())
                    .isEqualTo("UP");
            // a broker outage delays deliveries but pushes are still taken: the node stays ready and alive
            assertThat(health(gateway, "/readiness").status()).isEqualTo(200);
            assertThat(health(gateway, "/liveness").status()).isEqualTo(200);
        } finally {
            broker.startAgain();
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> health(gateway, "").status() == 200);
    }

    @Test
    void an_unreachable_redis_turns_health_and_readiness_503_naming_redis() {
        try (OwnRedis redis = TestServers.startOwnRedis();
                TestGateway own = TestGateway.start(redis.host(), redis.port(), "mykit.delay.redis.timeout=500ms")) {
            assertThat(health(own, "").status()).isEqualTo(200);
            redis.stop();
            try {
                Reply reply = health(own, "");
                assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
                assertThat(reply.json()
                                .path("components")
                                .path("redis")
                                .path("status")
                                .asText())
                        .isEqualTo("DOWN");
                assertThat(reply.json()
                                .path("components")
                                .path("redis")
                                .path("details")
                                .path("error")
                                .asText())
                        .isNotBlank();
                assertThat(reply.json()
                                .path("components")
                                .path("db")
                                .path("status")
                                .asText())
                        .isEqualTo("UP");
                Reply readiness = health(own, "/readiness");
                assertThat(readiness.status()).as(readiness.toString()).isEqualTo(503);
                assertThat(readiness
                                .json()
                                .path("components")
                                .path("redis")
                                .path("status")
                                .asText())
                        .isEqualTo("DOWN");
                assertThat(health(own, "/liveness").status())
                        .as("a store outage is no reason to restart")
                        .isEqualTo(200);
            } finally {
                redis.restart();
            }
            await().atMost(Duration.ofSeconds(15)).until(() -> health(own, "").status() == 200);
        }
    }

    @Test
    void readiness_is_503_while_a_restore_runs_and_health_stays_up() throws Exception {
        StateChangeWriter states = gateway.bean(StateChangeWriter.class);
        CompletableFuture<Admin.Answer> restore;
        // an end held open keeps the restore waiting at its first step, so it is observably running
        StateChangeWriter.Ending ending = states.beginEnding();
        try {
            restore = CompletableFuture.supplyAsync(() -> Admin.get(gateway, "/reStore", TOKEN));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> health(gateway, "/readiness").status() == 503);
            Reply readiness = health(gateway, "/readiness");
            assertThat(readiness.json().path("status").asText()).isEqualTo("RESTORING");
            assertThat(readiness
                            .json()
                            .path("components")
                            .path("restore")
                            .path("status")
                            .asText())
                    .isEqualTo("RESTORING");
            Reply whole = health(gateway, "");
            assertThat(whole.status()).as("a restore is no outage: " + whole).isEqualTo(200);
            assertThat(whole.json().findValues("details"))
                    .as("details are the admin's: " + whole)
                    .isEmpty();
            JsonNode forAdmin = MAPPER.readTree(
                    Admin.get(gateway, "/actuator/health", TOKEN).body());
            assertThat(forAdmin.path("components")
                            .path("restore")
                            .path("details")
                            .path("running")
                            .asBoolean())
                    .as(forAdmin.toString())
                    .isTrue();
            assertThat(health(gateway, "/liveness").status()).isEqualTo(200);
        } finally {
            ending.close();
        }
        assertThat(restore.get().status())
                .as("the restore itself: " + restore.get())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(15))
                .until(() -> health(gateway, "/readiness").status() == 200);
    }

    @Test
    void info_shows_version_mode_stores_and_targets() {
        // the admin's view: others get no addresses (InfoAndMetricsExposureTest)
        Admin.Answer reply = Admin.get(gateway, "/actuator/info", TOKEN);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode info = readJson(reply.body()).path("gateway");
        assertThat(info.path("version").asText()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(info.path("mode").asText()).isEqualTo("standalone");
        TestServers.RedisEndpoint redis = TestServers.redis();
        assertThat(info.path("stores").path("redis").path("address").asText())
                .isEqualTo(redis.host() + ":" + redis.port());
        assertThat(info.path("stores").path("redis").path("embedded").asBoolean())
                .isFalse();
        assertThat(info.path("stores").path("journal").path("url").asText())
                .contains(gateway.database())
                .doesNotContain("?")
                .doesNotContain("password");
        assertThat(info.path("stores").path("journal").path("embedded").asBoolean())
                .isFalse();
        assertThat(info.path("targets").findValuesAsText("name")).containsExactlyInAnyOrder("pull", "activemq");
        assertThat(reply.body()).doesNotContain(TOKEN);
    }

    private static JsonNode readJson(String body) {
        try {
            return MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void only_health_info_and_prometheus_are_open_and_admin_paths_stay_guarded() {
        for (String path : new String[] {"/actuator/health", "/actuator/info", "/actuator/prometheus"}) {
            Admin.Answer answer = Admin.get(gateway, path, null);
            assertThat(answer.status()).as(path + " without a token: " + answer).isEqualTo(200);
        }
        for (String path : new String[] {
            "/actuator",
            "/actuator/env",
            "/actuator/beans",
            "/actuator/metrics",
            "/actuator/loggers",
            "/actuator/shutdown",
            "/actuator/heapdump",
            "/actuator/configprops"
        }) {
            assertThat(Admin.get(gateway, path, null).status()).as(path).isEqualTo(404);
        }
        assertThat(gateway.client()
                        .raw("POST", "/actuator/shutdown", "application/json", "{}")
                        .status())
                .isIn(404, 405);
        assertThat(gateway.client().get("/clearAll").status())
                .as("admin path without its token")
                .isEqualTo(401);
        assertThat(gateway.client().get("/reStore/status").status()).isEqualTo(401);
    }

    @Test
    void an_admin_call_writes_one_log_line_with_its_job_bucket_caller_and_answer() {
        String id = gateway.client()
                .push("{\"topic\":\"ops-log\",\"delay\":600000,\"body\":\"secret-body\"}")
                .data()
                .asText();
        Logger admin = (Logger) LoggerFactory.getLogger("io.mykit.delay.admin");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        admin.addAppender(lines);
        try {
            // a token pasted into the query by mistake stays out of the log
            assertThat(Admin.get(gateway, "/reStoreJob?jobId=" + id + "&token=" + TOKEN, TOKEN)
                            .status())
                    .isEqualTo(200);
            assertThat(Admin.get(gateway, "/clearAll", null).status())
                    .as("refused: no token")
                    .isEqualTo(401);
            assertThat(gateway.client().lookup(id).status())
                    .as("not an admin call")
                    .isEqualTo(200);
        } finally {
            admin.detachAppender(lines);
        }
        assertThat(lines.list).hasSize(2);
        ILoggingEvent restored = lines.list.get(0);
        assertThat(restored.getLevel()).isEqualTo(Level.INFO);
        assertThat(restored.getFormattedMessage())
                .startsWith("admin GET /reStoreJob?jobId=" + id)
                .contains("jobId=" + id)
                .contains("bucket=" + Buckets.of(id, 16))
                .contains("from=127.0.0.1")
                .contains("&<redacted> ")
                .contains("status=200")
                .doesNotContain("secret-body")
                .doesNotContain(TOKEN);
        assertThat(restored.getMDCPropertyMap()).containsEntry("jobId", id);
        assertThat(lines.list.get(1).getFormattedMessage())
                .startsWith("admin GET /clearAll")
                .contains("status=401");
    }

    @Test
    void in_cluster_mode_zookeeper_is_a_component_and_its_loss_turns_health_503() throws Exception {
        System.setProperty("zookeeper.admin.enableServer", "false");
        try (TestingServer zookeeper = new TestingServer(-1, true)) {
            String namespace = "ops-" + UUID.randomUUID().toString().substring(0, 8);
            try (TestGateway node = TestGateway.start(
                    "mykit.delay.mode=cluster",
                    "mykit.delay.registry.server-list=" + zookeeper.getConnectString(),
                    "mykit.delay.registry.namespace=" + namespace,
                    "mykit.delay.registry.session-timeout=4s",
                    "mykit.delay.registry.node-id=ops-n1")) {
                Reply up = health(node, "");
                assertThat(up.status()).as(up.toString()).isEqualTo(200);
                assertThat(up.json()
                                .path("components")
                                .path("zookeeper")
                                .path("status")
                                .asText())
                        .isEqualTo("UP");
                assertThat(node.client()
                                .get("/actuator/info")
                                .json()
                                .path("gateway")
                                .path("mode")
                                .asText())
                        .isEqualTo("cluster");
                // a node claims its buckets in the background after it joined
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    Scrape metrics = Scrape.of(node.baseUrl());
                    assertThat(metrics.sum("mykit_delay_buckets_owned"))
                            .as("a lone cluster node owns every bucket")
                            .isEqualTo(16.0);
                    assertThat(metrics.sum("mykit_delay_leader")).isEqualTo(1.0);
                });
                zookeeper.stop();
                try {
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> health(node, "").status() == 503);
                    Reply down = health(node, "");
                    assertThat(down.json()
                                    .path("components")
                                    .path("zookeeper")
                                    .path("status")
                                    .asText())
                            .isEqualTo("DOWN");
                    assertThat(down.json()
                                    .path("components")
                                    .path("redis")
                                    .path("status")
                                    .asText())
                            .isEqualTo("UP");
                } finally {
                    zookeeper.restart();
                }
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> health(node, "").status() == 200);
            }
        }
    }
}
