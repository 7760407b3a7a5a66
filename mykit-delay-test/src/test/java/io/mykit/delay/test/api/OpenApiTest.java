package io.mykit.delay.test.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.controller.AdminGuard;
import io.mykit.delay.controller.TenantGuard;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.RawHttp;
import io.mykit.delay.test.gateway.TestGateway;
import io.swagger.v3.oas.annotations.Hidden;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;

/**
 * The API document lists every route of the gateway's controllers with its schemas and examples, marks the legacy GET
 * forms deprecated and the admin routes as needing the token, and is served (with Swagger UI) without a token.
 */
class OpenApiTest {
    private static final String TOKEN = "openapi-admin-token";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The original mykit-delay's state-changing GET routes, kept beside their REST forms. */
    private static final Set<String> LEGACY =
            Set.of("GET /finish", "GET /delete", "GET /reStore", "GET /reStoreJob", "GET /clearAll");

    // a token is set: the document and Swagger UI must still answer without it
    @Gateway("mykit.delay.admin.token=" + TOKEN)
    private static TestGateway gateway;

    private static JsonNode doc;

    /** A route as a handler method declares it. */
    private record Route(String method, String path, Method handler, Class<?> controller) {
        String key() {
            return method + " " + path;
        }
    }

    @BeforeAll
    static void start() throws Exception {
        RawHttp.Answer answer = get("/v3/api-docs");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        doc = MAPPER.readTree(answer.body());
        Path saved = Path.of("target", "openapi.json");
        Files.createDirectories(saved.getParent());
        Files.writeString(saved, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc));
    }

    private static RawHttp.Answer get(String target) throws Exception {
        return RawHttp.send("127.0.0.1", URI.create(gateway.baseUrl()).getPort(), "GET", target, Map.of(), null);
    }

    /**
     * Every route the gateway's controllers map, found on the classpath: a new controller is checked without a list.
     */
    private static List<Route> routes() throws ClassNotFoundException {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(RestController.class));
        List<Route> routes = new ArrayList<>();
        for (BeanDefinition definition : scanner.findCandidateComponents("io.mykit.delay.controller")) {
            Class<?> type = Class.forName(definition.getBeanClassName());
            if (type.isAnnotationPresent(Hidden.class)) {
                continue;
            }
            for (Method handler : type.getDeclaredMethods()) {
                RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler, RequestMapping.class);
                if (mapping == null) {
                    continue;
                }
                for (String path : mapping.path()) {
                    for (var method : mapping.method()) {
                        routes.add(new Route(method.name(), path, handler, type));
                    }
                }
            }
        }
        assertThat(routes).as("routes found by scanning").hasSizeGreaterThan(20);
        return routes;
    }

    private static JsonNode operation(Route route) {
        return doc.path("paths").path(route.path()).path(route.method().toLowerCase(Locale.ROOT));
    }

    /** A schema, following a $ref into components. */
    private static JsonNode resolve(JsonNode schema) {
        String ref = schema.path("$ref").asText("");
        return ref.isEmpty()
                ? schema
                : doc.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
    }

    @Test
    void every_route_of_the_controllers_is_in_the_document_with_a_typed_json_answer() throws Exception {
        for (Route route : routes()) {
            JsonNode operation = operation(route);
            assertThat(operation.isObject())
                    .as(route.key() + " in the document")
                    .isTrue();
            assertThat(operation.path("summary").asText())
                    .as(route.key() + " summary")
                    .isNotBlank();
            JsonNode answer = resolve(okSchema(operation));
            assertThat(answer.path("properties").fieldNames())
                    .toIterable()
                    .as(route.key() + " answer: " + operation)
                    .contains("success", "code", "message", "data");
            assertThat(answer.path("properties").path("data").isObject())
                    .as(route.key() + " data schema")
                    .isTrue();
            for (String refusal : List.of("400", "503")) {
                assertThat(operation
                                .path("responses")
                                .path(refusal)
                                .path("content")
                                .path("application/json")
                                .path("schema")
                                .path("$ref")
                                .asText())
                        .as(route.key() + " " + refusal)
                        .isEqualTo("#/components/schemas/ApiError");
            }
        }
        assertThat(doc.path("components")
                        .path("schemas")
                        .path("ApiError")
                        .path("properties")
                        .fieldNames())
                .toIterable()
                .contains("success", "code", "message", "field");
        assertThat(doc.path("components")
                        .path("schemas")
                        .path("ApiError")
                        .path("properties")
                        .path("data")
                        .path("type")
                        .toString())
                .contains("null");
    }

    @Test
    void the_stream_handshake_is_documented_with_its_parameters_and_refusals() {
        JsonNode stream = doc.path("paths").path("/stream").path("get");
        assertThat(stream.path("summary").asText()).isNotBlank();
        assertThat(stream.path("description").asText()).contains("docs/api.md");
        assertThat(stream.path("parameters").findValuesAsText("name")).contains("topics", "credit", "ttr");
        assertThat(stream.path("responses").has("101")).isTrue();
        for (String refusal : List.of("400", "401", "403", "429")) {
            assertThat(stream.path("responses")
                            .path(refusal)
                            .path("content")
                            .path("application/json")
                            .path("schema")
                            .path("$ref")
                            .asText())
                    .as("/stream " + refusal)
                    .isEqualTo("#/components/schemas/ApiError");
        }
    }

    /** The schema of an operation's 200 answer, as JSON. */
    private static JsonNode okSchema(JsonNode operation) {
        return operation
                .path("responses")
                .path("200")
                .path("content")
                .path("application/json")
                .path("schema");
    }

    @Test
    void push_body_is_the_typed_push_request_naming_every_field_a_push_reads() {
        JsonNode body = doc.path("paths").path("/push").path("post").path("requestBody");
        assertThat(body.path("required").asBoolean()).isTrue();
        JsonNode json = body.path("content").path("application/json");
        assertThat(json.path("schema").path("$ref").asText()).isEqualTo("#/components/schemas/PushRequest");
        assertThat(json.path("examples").size()).as("push examples").isPositive();
        JsonNode schema = resolve(json.path("schema"));
        assertThat(schema.path("required")).extracting(JsonNode::asText).containsExactly("topic");

        // what the handler reads: Job's settable JSON properties, less attempts (a push always starts at 0)
        ObjectMapper appMapper = gateway.bean(ObjectMapper.class);
        Set<String> read = new TreeSet<>();
        for (BeanPropertyDefinition property : appMapper
                .getDeserializationConfig()
                .introspect(appMapper.constructType(Job.class))
                .findProperties()) {
            if (property.hasSetter() || property.hasConstructorParameter()) {
                read.add(property.getName());
            }
        }
        read.remove("attempts");
        Set<String> documented = new TreeSet<>();
        schema.path("properties").fieldNames().forEachRemaining(documented::add);
        assertThat(documented).isEqualTo(read);
        schema.path("properties").fields().forEachRemaining(field -> {
            assertThat(field.getValue().path("description").asText())
                    .as(field.getKey() + " description")
                    .isNotBlank();
            assertThat(field.getValue().has("example"))
                    .as(field.getKey() + " example")
                    .isTrue();
        });

        JsonNode batch = doc.path("paths")
                .path("/push/batch")
                .path("post")
                .path("requestBody")
                .path("content")
                .path("application/json");
        assertThat(batch.path("schema").path("type").asText()).isEqualTo("array");
        assertThat(batch.path("schema").path("items").path("$ref").asText())
                .isEqualTo("#/components/schemas/PushRequest");
        assertThat(batch.path("examples").size()).as("batch examples").isPositive();
    }

    @Test
    void answers_carry_examples() {
        JsonNode lookup =
                resolve(resolve(okSchema(doc.path("paths").path("/jobs/{id}").path("get")))
                        .path("properties")
                        .path("data"));
        assertThat(lookup.path("properties").path("bizKey").path("example").asText())
                .isEqualTo("order-42");
        assertThat(lookup.path("properties").path("status").path("enum"))
                .extracting(JsonNode::asText)
                .contains("WaitPut", "Delay", "Finish", "Delete", "Dead");
        JsonNode envelope =
                resolve(okSchema(doc.path("paths").path("/jobs/{id}").path("get")));
        assertThat(envelope.path("properties").path("code").path("example").asInt())
                .isEqualTo(200);
        JsonNode cleared =
                resolve(resolve(okSchema(doc.path("paths").path("/admin/clear").path("post")))
                        .path("properties")
                        .path("data"));
        assertThat(cleared.path("properties").path("removedKeys").has("example"))
                .isTrue();
        JsonNode limit = doc.path("paths").path("/jobs").path("get").path("parameters").findParents("name").stream()
                .filter(p -> p.path("name").asText().equals("limit"))
                .findFirst()
                .orElseThrow();
        assertThat(limit.path("schema").path("type").asText()).isEqualTo("integer");
        assertThat(limit.path("schema").path("maximum").asInt()).isEqualTo(100);
    }

    @Test
    void legacy_get_forms_are_deprecated_and_their_rest_forms_are_not() throws Exception {
        Set<String> deprecated = new HashSet<>();
        for (Route route : routes()) {
            if (operation(route).path("deprecated").asBoolean(false)) {
                deprecated.add(route.key());
            }
        }
        assertThat(deprecated).isEqualTo(LEGACY);
        for (String rest : List.of(
                "/jobs/{id}/finish:post",
                "/jobs/{id}:delete",
                "/admin/restore:post",
                "/admin/restore/{id}:post",
                "/admin/clear:post")) {
            String[] parts = rest.split(":");
            JsonNode operation = doc.path("paths").path(parts[0]).path(parts[1]);
            assertThat(operation.isObject()).as(rest).isTrue();
            assertThat(operation.path("deprecated").asBoolean(false)).as(rest).isFalse();
        }
    }

    @Test
    void admin_routes_and_only_they_ask_for_the_admin_token() throws Exception {
        JsonNode schemes = doc.path("components").path("securitySchemes");
        assertThat(schemes.path("adminToken").path("scheme").asText()).isEqualTo("bearer");
        assertThat(schemes.path("adminTokenHeader").path("name").asText()).isEqualTo("X-Admin-Token");
        Set<String> admin = new TreeSet<>();
        for (Route route : routes()) {
            HandlerMethod handler = new HandlerMethod(gateway.bean(route.controller()), route.handler());
            boolean guarded = AdminGuard.isAdmin(handler);
            // data-plane routes declare the tenants' bearer scheme instead (needed only while tenants are configured)
            boolean dataPlane = TenantGuard.isDataPlane(handler);
            Set<String> asked = new TreeSet<>();
            operation(route)
                    .path("security")
                    .forEach(requirement -> requirement.fieldNames().forEachRemaining(asked::add));
            assertThat(asked)
                    .as(route.key() + " security")
                    .isEqualTo(
                            guarded
                                    ? Set.of("adminToken", "adminTokenHeader")
                                    : dataPlane ? Set.of("tenantToken") : Set.of());
            assertThat(operation(route).path("responses").has("401"))
                    .as(route.key() + " 401")
                    .isEqualTo(guarded || dataPlane);
            if (guarded) {
                admin.add(route.key());
            }
        }
        assertThat(admin)
                .contains(
                        "POST /admin/restore",
                        "POST /admin/restore/{id}",
                        "POST /admin/clear",
                        "GET /reStore",
                        "GET /reStoreJob",
                        "GET /clearAll");
        assertThat(doc.path("security").isMissingNode() || doc.path("security").isEmpty())
                .as("no document-wide requirement")
                .isTrue();
    }

    @Test
    void the_yaml_document_does_not_make_the_api_read_yaml_bodies() throws Exception {
        String bizKey = "oa-" + UUID.randomUUID().toString().substring(0, 8);
        for (String path : List.of("/push", "/push/batch")) {
            GatewayClient.Reply reply = gateway.client()
                    .raw("POST", path, "application/yaml", "- topic: t\n  bizKey: " + bizKey + "\n  delay: 1000\n");
            assertThat(reply.status()).as(path + " " + reply).isEqualTo(415);
        }
        GatewayClient.Reply found = gateway.client().raw("GET", "/jobs?bizKey=" + bizKey, null, null);
        assertThat(found.status()).isEqualTo(200);
        assertThat(found.data().isEmpty()).as("nothing was pushed: " + found).isTrue();
    }

    @Test
    void swagger_ui_answers_without_a_token() throws Exception {
        RawHttp.Answer redirect = get("/swagger-ui.html");
        assertThat(redirect.status()).as(redirect.body()).isIn(200, 302);
        String page = redirect.status() == 302
                ? URI.create(redirect.header("Location")).getPath()
                : "/swagger-ui.html";
        RawHttp.Answer ui = get(page);
        assertThat(ui.status()).as(page).isEqualTo(200);
        assertThat(ui.body()).contains("swagger-ui");
        RawHttp.Answer yaml = get("/v3/api-docs.yaml");
        assertThat(yaml.status()).isEqualTo(200);
        assertThat(yaml.body()).contains("/jobs/{id}/finish:");
        RawHttp.Answer config = get("/v3/api-docs/swagger-config");
        assertThat(config.status()).isEqualTo(200);
        assertThat(MAPPER.readTree(config.body()).path("url").asText()).isEqualTo("/v3/api-docs");
    }
}
