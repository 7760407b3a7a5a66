package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.test.brokers.TestRocketMq;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import org.junit.jupiter.api.Test;

/** The rocketmq health component: a real name server and broker (child JVMs), and a name server nobody runs. */
class RocketMqHealthTest {

    @Test
    void rocketmq_with_a_registered_broker_is_up() {
        TestRocketMq rocketMq = TestRocketMq.start();
        try (TestGateway gateway = TestGateway.start(
                "mykit.delay.dispatch.routes[ops-rmq-*]=rocketmq",
                "mykit.delay.rocketmq.namesrv-addr=" + rocketMq.namesrvAddr())) {
            Reply reply = gateway.client().get("/actuator/health");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            assertThat(reply.json()
                            .path("components")
                            .path("rocketmq")
                            .path("status")
                            .asText())
                    .isEqualTo("UP");
            assertThat(gateway.client()
                            .get("/actuator/info")
                            .json()
                            .path("gateway")
                            .path("targets")
                            .findValuesAsText("nameServer"))
                    .containsExactly(rocketMq.namesrvAddr());
        }
    }

    @Test
    void an_unreachable_name_server_turns_health_503_naming_rocketmq() {
        try (TestGateway gateway = TestGateway.start(
                "mykit.delay.dispatch.routes[ops-rmq-*]=rocketmq",
                "mykit.delay.rocketmq.namesrv-addr=127.0.0.1:" + TestServers.freePort())) {
            Reply reply = gateway.client().get("/actuator/health");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
            assertThat(reply.json()
                            .path("components")
                            .path("rocketmq")
                            .path("status")
                            .asText())
                    .isEqualTo("DOWN");
            assertThat(reply.json()
                            .path("components")
                            .path("redis")
                            .path("status")
                            .asText())
                    .isEqualTo("UP");
            assertThat(gateway.client().get("/actuator/health/readiness").status())
                    .as("pushes are still taken while the broker is away")
                    .isEqualTo(200);
        }
    }
}
