package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.test.brokers.TestActiveMq;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.RedisClusterServers;
import io.mykit.delay.test.support.TestServers;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The original's shipped application.yml with only its hosts (and the database's credentials) changed, beside the jar
 * as a user would put it: the gateway starts on the Redis Cluster, the database and the ActiveMQ it names (its Druid
 * pool type and its logback placeholder notwithstanding), and a consumer written against the original parses what
 * arrives with the original's field names.
 */
class OriginalConfigurationTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void the_originals_application_yml_with_its_hosts_changed_runs_the_gateway_and_its_activemq_consumers_parse_jobs()
            throws Exception {
        RedisClusterServers cluster = RedisClusterServers.get();
        String database = "mykit_origcfg_" + UUID.randomUUID().toString().substring(0, 8);
        String jdbcUrl = TestServers.jdbcUrl(database);
        Path dir = Files.createTempDirectory("mykit-original-config");
        try (TestActiveMq broker = TestActiveMq.start()) {
            Files.writeString(
                    dir.resolve("application.yml"),
                    hostsChanged(OriginalFixtures.text("application.yml"), jdbcUrl, cluster, broker),
                    StandardCharsets.UTF_8);
            try (TestGateway gateway = TestGateway.startOnOwnSettings(
                    database,
                    "spring.config.additional-location=file:" + dir + "/",
                    "default.cq=activemqCQ",
                    "mykit.delay.activemq.payload=job-json")) {
                DelayProperties properties = gateway.bean(DelayProperties.class);
                assertThat(properties.getRedis().getClusterNodes())
                        .as("spring.redis.cluster.nodes")
                        .containsExactly(cluster.nodesSetting().split(","));
                assertThat(properties.getBuckets())
                        .as("mykit.delay.rqueue.bucketSize")
                        .isEqualTo(4);
                assertThat(properties.getDispatch().getDefaultTarget())
                        .as("default.cq=activemqCQ")
                        .isEqualTo("activemq");
                assertThat(gateway.bean(DataSource.class).getClass().getName()).contains("Hikari");
                assertThat(gateway.bean(ConfigurableEnvironment.class)
                                .getPropertySources()
                                .contains("mykitDelayEmbeddedStores"))
                        .as("an embedded store started")
                        .isFalse();

                String topic = "orig-amq-" + UUID.randomUUID().toString().substring(0, 6);
                GatewayClient.Reply pushed = gateway.client()
                        .push("{\"topic\":\"" + topic + "\",\"subtopic\":\"close\","
                                + "\"bizKey\":\"order-42\",\"delay\":500,\"ttl\":0,\"body\":\"{\\\"orderId\\\":42}\"}");
                assertThat(pushed.status()).as("push: %s", pushed).isEqualTo(200);
                String id = pushed.data().asText();

                JsonNode job = receiveJson(broker, topic);
                // the original consumer's fields, by the original's names
                assertThat(job.path("id").asText()).isEqualTo(id);
                assertThat(job.path("topic").asText()).isEqualTo(topic);
                assertThat(job.path("subtopic").asText()).isEqualTo("close");
                assertThat(job.path("bizKey").asText()).isEqualTo("order-42");
                assertThat(job.path("delay").asLong()).isEqualTo(500);
                assertThat(job.path("ttl").asLong()).isZero();
                assertThat(job.path("body").asText()).isEqualTo("{\"orderId\":42}");
                assertThat(job.path("createTime").asLong()).isPositive();
                assertThat(job.path("status").asInt()).as("Ready").isEqualTo(2);
            }
        } finally {
            Files.deleteIfExists(dir.resolve("application.yml"));
            Files.deleteIfExists(dir);
        }
    }

    /** The user's edit: their database, Redis Cluster and broker addresses (and the database's password) instead. */
    private static String hostsChanged(String yml, String jdbcUrl, RedisClusterServers cluster, TestActiveMq broker) {
        String database = jdbcUrl.substring(0, jdbcUrl.indexOf('?')).substring("jdbc:mysql://".length());
        String changed = yml.replace("127.0.0.1:3306/mykit_delay", database)
                .replace("failover:(tcp://127.0.0.1:61616)", "failover:(" + broker.brokerUrl() + ")")
                .replace("password: root", "password: '" + TestServers.jdbcPassword() + "'")
                .replace("username: root", "username: " + TestServers.jdbcUser());
        String nodes =
                cluster.nodes().stream().map(node -> "            - " + node).collect(Collectors.joining("\n"));
        changed = changed.replaceFirst(
                "(?m)(          nodes:\\n)(            - 10\\.31\\.5\\.65:700\\d\\n)+",
                Matcher.quoteReplacement("          nodes:\n" + nodes + "\n"));
        assertThat(changed)
                .as("every host replaced")
                .doesNotContain("10.31.5.65")
                .doesNotContain("/mykit_delay?")
                .doesNotContain("tcp://127.0.0.1:61616");
        return changed;
    }

    private static JsonNode receiveJson(TestActiveMq broker, String queue) throws Exception {
        Connection connection = new ActiveMQConnectionFactory(broker.brokerUrl()).createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            Message message = consumer.receive(20_000);
            assertThat(message).as("a message on queue %s", queue).isInstanceOf(TextMessage.class);
            return MAPPER.readTree(((TextMessage) message).getText());
        } finally {
            connection.close();
        }
    }
}
