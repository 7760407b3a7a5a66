package io.mykit.delay.spring;

import io.mykit.delay.client.DelayClient;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The client of the gateway at {@code mykit.delay.client.url}, the {@link DelayTemplate} over it, and the consumers of
 * every {@link DelayListener} method. Each bean gives way to one of the service's own.
 */
@AutoConfiguration
@ConditionalOnClass(DelayClient.class)
@ConditionalOnProperty(prefix = DelayClientProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(DelayClientProperties.class)
public class DelayClientAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public DelayClient delayClient(DelayClientProperties properties) {
        properties.validate();
        return DelayClient.builder()
                .baseUri(properties.getUrl())
                .token(properties.getToken())
                .requestTimeout(properties.getRequestTimeout())
                .build();
    }

    @Bean
    @ConditionalOnMissingBean
    public DelayTemplate delayTemplate(DelayClient client, DelayClientProperties properties) {
        return new DelayTemplate(client, properties.getDefaultTries(), properties.getDefaultTtl());
    }

    // static: a post-processor is made before the other beans, without this configuration's instance
    @Bean
    @ConditionalOnMissingBean
    public static DelayListenerProcessor delayListenerProcessor(Environment environment) {
        return new DelayListenerProcessor(environment);
    }

    @Bean
    @ConditionalOnMissingBean
    public ListenerStates delayListenerStates() {
        return new ListenerStates(Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    public DelayListenerRegistry delayListenerRegistry(
            DelayClient client,
            DelayListenerProcessor processor,
            ListenerStates states,
            ObjectProvider<DelayListenerObserver> observers,
            DelayClientProperties properties) {
        properties.getListener().validate();
        return new DelayListenerRegistry(
                client,
                processor,
                states,
                observers.orderedStream().toList(),
                properties.getListener().getShutdownTimeout());
    }
}
