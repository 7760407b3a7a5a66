package io.mykit.delay.test.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.client.NonRetryableException;
import io.mykit.delay.client.ReceivedJob;
import io.mykit.delay.spring.DelayListener;
import io.mykit.delay.spring.DelayTemplate;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The listeners' counters and connected gauge in the service's registry, and the delayListeners health. */
class ListenerMetricsHealthTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String LISTENER = "orders";

    @Test
    void counters_follow_the_outcomes_and_health_goes_down_when_the_gateway_is_gone(
            @Gateway("mykit.delay.pull.poll-interval=50ms") TestGateway gateway) {
        String topic = "spring-metrics-" + UUID.randomUUID().toString().substring(0, 8);
        try (ConfigurableApplicationContext service = TestService.start(
                Metered.class,
                gateway.baseUrl(),
                "test.topic=" + topic,
                "mykit.delay.client.listener.health-grace=1s")) {
            SimpleMeterRegistry meters = service.getBean(SimpleMeterRegistry.class);
            HealthIndicator health = service.getBean("delayListenersHealthIndicator", HealthIndicator.class);
            DelayTemplate template = service.getBean(DelayTemplate.class);
            await().atMost(WAIT).until(() -> connected(meters) == 1);
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);

            template.push(topic, "fine", Duration.ZERO);
            template.push(DelayJob.builder(topic).body("fails once").tries(5).build());
            template.push(topic, "unreadable", Duration.ZERO);
            await().atMost(WAIT).until(() -> jobs(meters, topic, "finished") == 2);
            await().atMost(WAIT).until(() -> jobs(meters, topic, "buried") == 1);
            assertThat(jobs(meters, topic, "released")).isEqualTo(1);
            assertThat(jobs(meters, topic, "received")).isEqualTo(4);

            gateway.stop();
            await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.DOWN));
            Health down = health.health();
            assertThat(down.getDetails()).containsKey(LISTENER);
            assertThat(((Map<?, ?>) down.getDetails().get(LISTENER)).get("connected"))
                    .isEqualTo(false);
            assertThat(connected(meters)).isZero();
        }
    }

    private static double connected(SimpleMeterRegistry meters) {
        Gauge gauge = meters.find("mykit.delay.client.listeners.connected").gauge();
        return gauge == null ? -1 : gauge.value();
    }

    private static double jobs(SimpleMeterRegistry meters, String topic, String outcome) {
        Counter counter = meters.find("mykit.delay.client.jobs")
                .tags("topic", topic, "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Configuration(proxyBeanMethods = false)
    static class Metered {
        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @DelayListener(topic = "${test.topic}", id = LISTENER)
        void handle(String body, ReceivedJob job) {
            if (body.equals("unreadable")) {
                throw new NonRetryableException("not an order");
            }
            if (body.equals("fails once") && job.attempts() == 0) {
                throw new IllegalStateException("order service down");
            }
        }
    }
}
