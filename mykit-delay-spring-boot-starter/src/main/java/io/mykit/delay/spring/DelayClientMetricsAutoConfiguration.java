package io.mykit.delay.spring;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The listeners' job counters and connected gauge, when the service has a Micrometer registry. */
@AutoConfiguration(
        after = DelayClientAutoConfiguration.class,
        afterName = "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, ListenerStates.class})
public class DelayClientMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public DelayListenerMetrics delayListenerMetrics(MeterRegistry registry, ListenerStates states) {
        return new DelayListenerMetrics(registry, states);
    }
}
