package io.mykit.delay.core;

import io.mykit.delay.controller.AdminGuard;
import io.mykit.delay.controller.TenantGuard;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
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
    /** A tenant's token (or the admin token) as {@code Authorization: Bearer <token>}, on the data plane. */
    public static final String TENANT_BEARER = "tenantToken";
    /** The envelope of every refusal and failure: success false, data null. */
    public static final String ERROR_SCHEMA = "ApiError";

    @Bean
    public OpenAPI gatewayApi() {
        String version = ApiDocsConfiguration.class.getPackage().getImplementationVersion();
        String token = "mykit.delay.admin.token; while none is set, admin calls are answered only to programs on the "
                + "gateway's host called as localhost, 127.0.0.1 or [::1] (or to anyone with "
                + "mykit.delay.admin.open=true), never to a web page of another origin";
        return new OpenAPI()
                .info(new Info()
                        .title("mykit-delay")
                        .version(version == null ? "dev" : version)
                        .description("Delayed-message gateway: push a job, and it is delivered to its topic's "
                                + "target (RocketMQ, ActiveMQ or the HTTP pull queue) when due. Every answer is the "
                                + "envelope {success, code, message, data} with a real HTTP status: 400 bad input "
                                + "(field names it), 401/403 admin calls without the token, 404 unknown job, 409 a "
                                + "job in a state that refuses the call, 503 a backing store is down."))
                .components(new Components()
                        .addSchemas(
                                ERROR_SCHEMA,
                                new ObjectSchema()
                                        .description("A refusal or failure: the HTTP status again in "
                                                + "code, what was wrong in "
                                                + "message, and on 4xx the offending field")
                                        .addProperty("success", new BooleanSchema().example(false))
                                        .addProperty("code", new IntegerSchema().example(400))
                                        .addProperty(
                                                "message",
                                                new StringSchema().example("delay: must be 0..31622400000 ms, was -1"))
                                        .addProperty(
                                                "data",
                                                new Schema<>()
                                                        .types(Set.of("null"))
                                                        .description("always null"))
                                        .addProperty("field", new StringSchema().example("delay")))
                        .addSecuritySchemes(
                                ADMIN_BEARER,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .description("The admin token: " + token))
                        .addSecuritySchemes(
                                TENANT_BEARER,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .description("A tenant's token (mykit.delay.tenants.<name>.tokens) or the "
                                                + "admin token; needed only while tenants are "
                                                + "configured. A tenant uses only the topics of its "
                                                + "patterns"))
                        .addSecuritySchemes(
                                ADMIN_HEADER,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.APIKEY)
                                        .in(SecurityScheme.In.HEADER)
                                        .name("X-Admin-Token")
                                        .description("The admin token in its own header: " + token)));
    }

    /** Either form of the token on each admin operation: the document cannot drift from what the guard checks. */
    @Bean
    public OperationCustomizer adminTokenRequirement() {
        return (operation, handler) -> {
            if (AdminGuard.isAdmin(handler)) {
                operation
                        .addSecurityItem(new SecurityRequirement().addList(ADMIN_BEARER))
                        .addSecurityItem(new SecurityRequirement().addList(ADMIN_HEADER));
            }
            return operation;
        };
    }

    /** The bearer scheme on each data-plane operation, the same ones {@link TenantGuard} checks. */
    @Bean
    public OperationCustomizer tenantTokenRequirement() {
        return (operation, handler) -> {
            if (TenantGuard.isDataPlane(handler)) {
                operation.addSecurityItem(new SecurityRequirement().addList(TENANT_BEARER));
                ApiResponses responses = operation.getResponses();
                responses.addApiResponse("401", error("Tenants are configured and the token is missing or unknown"));
                responses.addApiResponse("403", error("A topic outside the token's patterns"));
            }
            return operation;
        };
    }

    /** The refusals every route may give, and those of admin routes, as the exception handler answers them. */
    @Bean
    public OperationCustomizer errorAnswers() {
        return (operation, handler) -> {
            ApiResponses responses = operation.getResponses();
            responses.addApiResponse("400", error("Bad input: message and field say which and why"));
            if (AdminGuard.isAdmin(handler)) {
                responses.addApiResponse("401", error("No admin token, or a wrong one"));
                responses.addApiResponse(
                        "403",
                        error("No admin token is set and the caller is not on this host, "
                                + "or is a web page of another origin"));
            }
            boolean oneJob = operation.getParameters() != null
                    && operation.getParameters().stream()
                            .anyMatch(
                                    p -> p.getName().equals("id") || p.getName().equals("jobId"));
            if (oneJob) {
                responses.addApiResponse("404", error("No such job"));
                responses.addApiResponse("409", error("The job's state refuses the call (message says which)"));
            }
            responses.addApiResponse(
                    "503",
                    error("Redis or the journal database cannot be reached; nothing changed "
                            + "unless the message says otherwise"));
            return operation;
        };
    }

    /**
     * {@code GET /stream}, which no Spring MVC handler serves (a WebSocket handler does): its handshake, documented by
     * hand; the frames are in docs/api.md.
     */
    @Bean
    public OpenApiCustomizer streamDocument() {
        return api -> api.path(
                "/stream",
                new PathItem()
                        .get(new Operation()
                                .operationId("stream")
                                .addTagsItem("pull")
                                .summary("Stream due jobs of pull topics over a WebSocket")
                                .description("A WebSocket upgrade (ws://host/stream?topics=a,b): due jobs of the "
                                        + "topics are written as {\"type\":\"jobs\"} frames as they are handed over, "
                                        + "at most credit held unacknowledged; the consumer answers with finish, "
                                        + "release, touch, bury, credit and ping frames. A refused handshake is "
                                        + "answered as plain HTTP with the error envelope. Frames, close codes and "
                                        + "limits: docs/api.md, section Stream.")
                                .addParametersItem(query(
                                        "topics",
                                        new StringSchema(),
                                        true,
                                        "1..stream.max-topics " + "pull topics, comma-separated"))
                                .addParametersItem(query(
                                        "credit",
                                        new IntegerSchema()._default(64),
                                        false,
                                        "most jobs held unacknowledged, 1..stream.max-credit"))
                                .addParametersItem(query(
                                        "ttr",
                                        new IntegerSchema().format("int64"),
                                        false,
                                        "ms each job is reserved for (default pull.default-ttr, at most "
                                                + "pull.max-ttr)"))
                                .addSecurityItem(new SecurityRequirement().addList(TENANT_BEARER))
                                .responses(new ApiResponses()
                                        .addApiResponse("101", new ApiResponse().description("Upgraded to WebSocket"))
                                        .addApiResponse("400", error("Bad parameters: message and field say which"))
                                        .addApiResponse(
                                                "401",
                                                error("Tenants are configured and the token is "
                                                        + "missing or unknown"))
                                        .addApiResponse(
                                                "403",
                                                error("A topic outside the token's patterns, or a "
                                                        + "browser's handshake from another origin"))
                                        .addApiResponse("409", error("A topic the routes send to a broker or the log"))
                                        .addApiResponse(
                                                "429",
                                                error("Too many streams open on this node, or of " + "the tenant"))
                                        .addApiResponse(
                                                "503",
                                                error("Redis or the journal database cannot be " + "reached")))));
    }

    private static Parameter query(String name, Schema<?> schema, boolean required, String description) {
        return new Parameter()
                .in("query")
                .name(name)
                .required(required)
                .schema(schema)
                .description(description);
    }

    private static ApiResponse error(String description) {
        return new ApiResponse()
                .description(description)
                .content(new Content()
                        .addMediaType(
                                org.springframework.http.MediaType.APPLICATION_JSON_VALUE,
                                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + ERROR_SCHEMA))));
    }
}
