package io.mykit.delay.test.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.client.ReceivedJob;
import io.mykit.delay.spring.DelayClientAutoConfiguration;
import io.mykit.delay.spring.DelayClientHealthAutoConfiguration;
import io.mykit.delay.spring.DelayClientMetricsAutoConfiguration;
import io.mykit.delay.spring.DelayListener;
import io.mykit.delay.spring.DelayTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What the starter does before any gateway is reached: its registration, and refusals at start-up. */
class StarterRegistrationTest {
    // nothing listens here: these contexts either stop at start-up or start no listener
    private static final String NO_GATEWAY = "http://127.0.0.1:9";

    @Test
    void the_auto_configurations_are_registered() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
                .contains(
                        DelayClientAutoConfiguration.class.getName(),
                        DelayClientMetricsAutoConfiguration.class.getName(),
                        DelayClientHealthAutoConfiguration.class.getName());
    }

    @Test
    void a_listener_method_with_a_parameter_the_starter_cannot_give_stops_the_start_naming_it() {
        assertThatThrownBy(
                        () -> TestService.start(BadParameter.class, NO_GATEWAY).close())
                .hasStackTraceContaining("@DelayListener method badParameter.handle(ReceivedJob, Integer)")
                .hasStackTraceContaining("java.lang.Integer is not one of String (the body), ReceivedJob");
    }

    @Test
    void a_listener_without_a_topic_or_with_an_unresolved_placeholder_stops_the_start() {
        assertThatThrownBy(() -> TestService.start(NoTopic.class, NO_GATEWAY).close())
                .hasStackTraceContaining("@DelayListener method noTopic.handle(String)")
                .hasStackTraceContaining("names no topic");
        assertThatThrownBy(() ->
                        TestService.start(UnresolvedTopic.class, NO_GATEWAY).close())
                .hasStackTraceContaining("@DelayListener method unresolvedTopic.handle(String)")
                .hasStackTraceContaining("no.such.topic");
    }

    @Test
    void a_listener_with_a_bad_topic_or_number_stops_the_start_naming_it() {
        assertThatThrownBy(() -> TestService.start(BadValues.class, NO_GATEWAY, "test.topic=not a topic")
                        .close())
                .hasStackTraceContaining("@DelayListener method badValues.handle(String)")
                .hasStackTraceContaining("not a topic: not a topic");
        assertThatThrownBy(
                        () -> TestService.start(BadValues.class, NO_GATEWAY, "test.topic=fine", "test.concurrency=many")
                                .close())
                .hasStackTraceContaining("@DelayListener method badValues.handle(String)")
                .hasStackTraceContaining("concurrency is not a number: many");
    }

    @Test
    void a_service_without_the_gateway_url_does_not_start() {
        assertThatThrownBy(() -> TestService.start(Empty.class, NO_GATEWAY, "mykit.delay.client.url=")
                        .close())
                .hasStackTraceContaining("mykit.delay.client.url is required");
    }

    @Test
    void the_template_is_off_when_the_client_is_disabled() {
        try (ConfigurableApplicationContext service =
                TestService.start(Empty.class, NO_GATEWAY, "mykit.delay.client.enabled=false")) {
            assertThat(service.getBeansOfType(DelayTemplate.class)).isEmpty();
        }
    }

    @Configuration
    static class Empty {}

    @Configuration
    static class BadParameter {
        @Bean
        Object badParameter() {
            return new Object() {
                @DelayListener(topic = "bad")
                void handle(ReceivedJob job, Integer count) {}
            };
        }
    }

    @Configuration
    static class NoTopic {
        @Bean
        Object noTopic() {
            return new Object() {
                @DelayListener(topic = "")
                void handle(String body) {}
            };
        }
    }

    @Configuration
    static class BadValues {
        @Bean
        Object badValues() {
            return new Object() {
                @DelayListener(topic = "${test.topic}", concurrency = "${test.concurrency:1}")
                void handle(String body) {}
            };
        }
    }

    @Configuration
    static class UnresolvedTopic {
        @Bean
        Object unresolvedTopic() {
            return new Object() {
                @DelayListener(topic = "${no.such.topic}")
                void handle(String body) {}
            };
        }
    }
}
