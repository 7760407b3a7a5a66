package io.mykit.delay.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.HttpProperties;
import io.mykit.delay.config.LimitsProperties;
import io.mykit.delay.controller.AdminGuard;
import io.mykit.delay.controller.AdminPrincipalFilter;
import io.mykit.delay.controller.AllowedHosts;
import io.mykit.delay.controller.BodyLimits;
import io.mykit.delay.controller.BrowserGuard;
import io.mykit.delay.controller.DirectRouteFilter;
import io.mykit.delay.controller.InFlightBodies;
import io.mykit.delay.controller.JobController;
import io.mykit.delay.controller.JsonErrorReportValve;
import io.mykit.delay.controller.LegacyStatusFilter;
import io.mykit.delay.controller.OperatorLog;
import io.mykit.delay.controller.PullController;
import io.mykit.delay.controller.RequestGuardFilter;
import io.mykit.delay.controller.SecurityHeadersFilter;
import io.mykit.delay.controller.SocketPeerValve;
import io.mykit.delay.controller.UnreadBodyValve;
import jakarta.servlet.DispatcherType;
import java.util.List;
import org.apache.catalina.core.StandardHost;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.yaml.MappingJackson2YamlHttpMessageConverter;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.handler.MappedInterceptor;

/** The HTTP edge: strict JSON, request guards, the admin guard, and JSON errors even from Tomcat itself. */
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

    /** What request bodies may hold at once: bytes (default a sixteenth of the heap) and reading threads. */
    @Bean
    public InFlightBodies inFlightBodies(DelayProperties properties, ServerProperties server) {
        HttpProperties http = properties.getHttp();
        long bytes = http.getMaxBodyBytesInFlight() > 0
                ? http.getMaxBodyBytesInFlight()
                : Runtime.getRuntime().maxMemory() / 16;
        int readers = http.getMaxBodyReaders() > 0
                ? http.getMaxBodyReaders()
                : Math.max(1, server.getTomcat().getThreads().getMax() / 2);
        LoggerFactory.getLogger(HttpBoundaryConfiguration.class)
                .info(
                        "request bodies: at most {} bytes in flight, {} threads reading them, each body within {}",
                        bytes,
                        readers,
                        http.getBodyReadTimeout());
        return new InFlightBodies(bytes, readers, http.getBodyReadTimeout());
    }

    /** After the caller filter (+5), so the caller is known before anything of a body is read. */
    @Bean
    public FilterRegistrationBean<RequestGuardFilter> requestGuardFilter(
            DelayProperties properties, InFlightBodies bodies, ObjectMapper mapper) {
        LimitsProperties limits = properties.getLimits();
        BodyLimits routes =
                new BodyLimits(limits.getMaxRequestBytes(), limits.getMaxBodyBytes(), limits.getMaxBatchSize());
        FilterRegistrationBean<RequestGuardFilter> registration =
                new FilterRegistrationBean<>(new RequestGuardFilter(routes, bodies, mapper));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /** Framing and content rules for every answer, refusals included. */
    @Bean
    public FilterRegistrationBean<SecurityHeadersFilter> securityHeadersFilter() {
        FilterRegistrationBean<SecurityHeadersFilter> registration =
                new FilterRegistrationBean<>(new SecurityHeadersFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }

    /** After the request guard, so the bodies it takes are already checked; before Spring MVC's dispatch. */
    @Bean
    @ConditionalOnProperty(name = "mykit.delay.http.direct-routes", havingValue = "true", matchIfMissing = true)
    public FilterRegistrationBean<DirectRouteFilter> directRouteFilter(
            JobController jobs, PullController pulls, ObjectMapper mapper, BrowserGuard browsers) {
        FilterRegistrationBean<DirectRouteFilter> registration =
                new FilterRegistrationBean<>(new DirectRouteFilter(jobs, pulls, mapper, browsers));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
        return registration;
    }

    /** Outermost, so that even the request guard's refusals and the error page answer 200 in legacy mode. */
    @Bean
    @ConditionalOnProperty(name = "mykit.delay.http.legacy-status", havingValue = "true")
    public FilterRegistrationBean<LegacyStatusFilter> legacyStatusFilter() {
        FilterRegistrationBean<LegacyStatusFilter> registration =
                new FilterRegistrationBean<>(new LegacyStatusFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ERROR, DispatcherType.ASYNC);
        LoggerFactory.getLogger(HttpBoundaryConfiguration.class)
                .info("mykit.delay.http.legacy-status=true: every "
                        + "answer is HTTP 200, the status is in the envelope's code");
        return registration;
    }

    /** The Host names a caller without a token may use: see AllowedHosts and docs/operations.md. */
    @Bean
    public AllowedHosts allowedHosts(DelayProperties properties) {
        AllowedHosts hosts = new AllowedHosts(
                properties.getHttp().getAllowedHosts(),
                AllowedHosts.machineNames(),
                properties.getHttp().isAllowedHostsOnly());
        LoggerFactory.getLogger(HttpBoundaryConfiguration.class)
                .info(
                        "calls without a token may name this gateway by localhost, an IP address or {}; {}",
                        hosts.names(),
                        properties.getHttp().isAllowedHostsOnly()
                                ? "any other name is refused (mykit.delay.http.allowed-hosts-only=true)"
                                : "a browser's call by any other name is refused");
        return hosts;
    }

    /** Web pages off the tokenless data plane, from Spring MVC's dispatch and from the direct routes. */
    @Bean
    public BrowserGuard browserGuard(AdminGuard admin, AllowedHosts hosts) {
        return new BrowserGuard(admin, hosts);
    }

    @Bean
    public WebMvcConfigurer browserGuardRegistration(BrowserGuard browsers) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(browsers);
            }
        };
    }

    @Bean
    public AdminGuard adminGuard(DelayProperties properties, AllowedHosts hosts) {
        AdminGuard guard = new AdminGuard(
                properties.getAdmin().getToken(), properties.getAdmin().isOpen(), hosts);
        Logger log = LoggerFactory.getLogger(HttpBoundaryConfiguration.class);
        switch (guard.mode()) {
            case TOKEN ->
                log.info("admin calls (/admin/*, /reStore*, /reStoreJob, /clearAll, dead-letter changes) "
                        + "require mykit.delay.admin.token, from every address");
            case LOOPBACK ->
                log.info("mykit.delay.admin.token is not set: admin calls (/admin/*, /reStore*, "
                        + "/reStoreJob, /clearAll, dead-letter changes) are answered only to "
                        + "programs on this host, called "
                        + "as localhost, 127.0.0.1 or [::1], never to a web page of another origin "
                        + "nor to callers a proxy "
                        + "says it forwarded; a reverse proxy on this host that does not say so "
                        + "makes every caller look "
                        + "local: set a token on any deployment others can reach");
            case OPEN ->
                log.warn("mykit.delay.admin.open=true and no mykit.delay.admin.token: admin calls (/admin/*, "
                        + "/reStore*, /reStoreJob, /clearAll, dead-letter changes) are open to "
                        + "anyone who can reach this "
                        + "port (web pages of other origins, and browsers calling by a name "
                        + "outside mykit.delay.http.allowed-hosts, excepted)");
        }
        return guard;
    }

    /** Health details for the admin only: the actuator shows them to a request with a user principal. */
    @Bean
    public FilterRegistrationBean<AdminPrincipalFilter> adminPrincipalFilter(
            AdminGuard guard, WebEndpointProperties endpoints) {
        FilterRegistrationBean<AdminPrincipalFilter> registration =
                new FilterRegistrationBean<>(new AdminPrincipalFilter(guard));
        registration.addUrlPatterns(endpoints.getBasePath() + "/*");
        return registration;
    }

    /**
     * Actuator endpoints beyond health, info and prometheus are admin calls. A MappedInterceptor bean, because Spring
     * MVC's registry (below) does not reach the actuator's own handler mappings.
     */
    @Bean
    public MappedInterceptor actuatorAdminEndpoints(AdminGuard guard, PathMappedEndpoints endpoints) {
        return new MappedInterceptor(null, new ActuatorAdminEndpoints(guard, endpoints));
    }

    /** Checks every request's resolved handler, on every path: a path pattern here would bring back URL matching. */
    @Bean
    public WebMvcConfigurer adminGuardRegistration(AdminGuard guard, DelayProperties properties) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                // first, so that a call the guard refuses is logged as well
                registry.addInterceptor(new OperatorLog(properties.getBuckets()));
                registry.addInterceptor(guard);
            }
        };
    }

    /**
     * Bodies are JSON only: springdoc brings jackson-dataformat-yaml, and with it on the classpath Spring MVC would
     * also read application/yaml bodies (its YAML API document is written by springdoc itself, not by this converter).
     */
    @Bean
    public WebMvcConfigurer jsonBodiesOnly() {
        return new WebMvcConfigurer() {
            @Override
            public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
                converters.removeIf(MappingJackson2YamlHttpMessageConverter.class::isInstance);
            }
        };
    }

    /** The admin guard's source of the TCP peer, whatever forwarded headers say. */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> socketPeerValve() {
        return factory -> factory.addEngineValves(new SocketPeerValve());
    }

    /** A body left unread closes its connection rather than holding a thread while Tomcat drains it. */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> unreadBodyValve() {
        return factory -> factory.addEngineValves(new UnreadBodyValve());
    }

    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonTomcatErrors() {
        return factory -> {
            // TRACE reaches the request guard, which answers it with the JSON 405 and never echoes a header
            factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
            factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
                }
            });
        };
    }
}
