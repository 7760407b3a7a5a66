package io.mykit.delay.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.controller.AdminTokenFilter;
import io.mykit.delay.controller.JsonErrorReportValve;
import io.mykit.delay.controller.RequestGuardFilter;
import org.apache.catalina.core.StandardHost;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** The HTTP edge: strict JSON, request guards, admin token, and JSON errors even from Tomcat itself. */
@Configuration(proxyBeanMethods = false)
public class HttpBoundaryConfiguration {

    /** A number or boolean where a string belongs is a wrong type, not a string. */
    @Bean
    public Jackson2ObjectMapperBuilderCustomizer strictTextualFields() {
        return builder -> builder.postConfigurer(mapper -> mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    @Bean
    public FilterRegistrationBean<RequestGuardFilter> requestGuardFilter(DelayProperties properties, ObjectMapper mapper) {
        FilterRegistrationBean<RequestGuardFilter> registration =
                new FilterRegistrationBean<>(new RequestGuardFilter(properties.getLimits().getMaxRequestBytes(), mapper));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    @Bean
    public FilterRegistrationBean<AdminTokenFilter> adminTokenFilter(DelayProperties properties, ObjectMapper mapper) {
        String token = properties.getAdmin().getToken();
        if (token == null || token.isBlank()) {
            LoggerFactory.getLogger(HttpBoundaryConfiguration.class).warn("mykit.delay.admin.token is not set: "
                    + "/reStore, /reStoreJob, /clearAll and dead-letter changes are open to anyone who can reach this port");
        }
        FilterRegistrationBean<AdminTokenFilter> registration = new FilterRegistrationBean<>(new AdminTokenFilter(token, mapper));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonTomcatErrors() {
        return factory -> {
            factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
            factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
                }
            });
        };
    }
}
