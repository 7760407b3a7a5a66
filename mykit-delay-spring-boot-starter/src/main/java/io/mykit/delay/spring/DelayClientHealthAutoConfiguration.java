package io.mykit.delay.spring;

import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code delayListeners} health component, when the service has Spring Boot Actuator. */
@AutoConfiguration(after = DelayClientAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(ListenerStates.class)
public class DelayClientHealthAutoConfiguration {

    // the bean name, less "HealthIndicator", is the component's name under /actuator/health
    @Bean
    @ConditionalOnMissingBean(name = "delayListenersHealthIndicator")
    public DelayListenersHealthIndicator delayListenersHealthIndicator(
            ListenerStates states, DelayClientProperties properties) {
        return new DelayListenersHealthIndicator(
                states, properties.getListener().getHealthGrace());
    }
}
