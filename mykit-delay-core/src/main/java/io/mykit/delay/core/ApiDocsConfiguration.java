package io.mykit.delay.core;

import io.mykit.delay.controller.AdminGuard;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The API document springdoc serves at /v3/api-docs (Swagger UI at /swagger-ui.html, both public): the gateway's
 * description, and the admin token as a security scheme on exactly the handlers {@link AdminGuard} checks.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocsConfiguration {
    /** The token as {@code Authorization: Bearer <token>}. */
    public static final String ADMIN_BEARER = "adminToken";
    /** The token as {@code X-Admin-Token: <token>}. */
    public static final String ADMIN_HEADER = "adminTokenHeader";

    @Bean
    public OpenAPI gatewayApi() {
        String version = ApiDocsConfiguration.class.getPackage().getImplementationVersion();
        String token = "mykit.delay.admin.token; while none is set, admin calls are answered from loopback "
                + "addresses only (or from anyone with mykit.delay.admin.open=true)";
        return new OpenAPI()
                .info(new Info().title("mykit-delay")
                        .version(version == null ? "dev" : version)
                        .description("Delayed-message gateway: push a job, and it is delivered to its topic's "
                                + "target (RocketMQ, ActiveMQ or the HTTP pull queue) when due. Every answer is the "
                                + "envelope {success, code, message, data} with a real HTTP status: 400 bad input "
                                + "(field names it), 401/403 admin calls without the token, 404 unknown job, 409 a "
                                + "job in a state that refuses the call, 503 a backing store is down."))
                .components(new Components()
                        .addSecuritySchemes(ADMIN_BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("bearer").description("The admin token: " + token))
                        .addSecuritySchemes(ADMIN_HEADER, new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                                .in(SecurityScheme.In.HEADER).name("X-Admin-Token")
                                .description("The admin token in its own header: " + token)));
    }

    /** Either form of the token on each admin operation: the document cannot drift from what the guard checks. */
    @Bean
    public OperationCustomizer adminTokenRequirement() {
        return (operation, handler) -> {
            if (AdminGuard.isAdmin(handler)) {
                operation.addSecurityItem(new SecurityRequirement().addList(ADMIN_BEARER))
                        .addSecurityItem(new SecurityRequirement().addList(ADMIN_HEADER));
            }
            return operation;
        };
    }
}
