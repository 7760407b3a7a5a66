package io.mykit.delay.test.spring;

import io.mykit.delay.spring.DelayClientAutoConfiguration;
import io.mykit.delay.spring.DelayClientHealthAutoConfiguration;
import io.mykit.delay.spring.DelayClientMetricsAutoConfiguration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A service using the starter: a Spring Boot context of its own, without a web server, beside the test's gateway. It
 * imports the starter's auto-configurations alone, not every one on the test class path (the gateway's among them);
 * {@code StarterRegistrationTest} checks that they are the ones registered for auto-configuration.
 */
final class TestService {
    private TestService() {}

    @SpringBootConfiguration
    @ImportAutoConfiguration({
        DelayClientAutoConfiguration.class,
        DelayClientMetricsAutoConfiguration.class,
        DelayClientHealthAutoConfiguration.class
    })
    static class Base {}

    /** Starts {@code configuration} (its listener beans) against the gateway at {@code gatewayUrl}. */
    static ConfigurableApplicationContext start(Class<?> configuration, String gatewayUrl, String... properties) {
        List<String> all = new ArrayList<>(List.of(
                // not the gateway's application.yml, which is on the test class path too
                "spring.config.name=mykit-delay-test-service",
                "spring.main.banner-mode=off",
                // the gateway's environment post-processor is on the class path too: no embedded stores for a service
                "mykit.delay.embedded.enabled=false",
                "mykit.delay.client.url=" + gatewayUrl));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(Base.class, configuration)
                .web(WebApplicationType.NONE)
                .registerShutdownHook(false)
                .properties(all.toArray(String[]::new))
                .run();
    }
}
