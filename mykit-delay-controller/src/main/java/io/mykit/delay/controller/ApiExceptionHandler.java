package io.mykit.delay.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.mykit.delay.common.error.DelayException;
import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.error.StoreUnavailableException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Maps every failure to the JSON envelope with a real HTTP status. A server-side failure (5xx) answers only what failed
 * ("redis unavailable", "internal error") and a request id; its details (addresses, driver messages, SQL) go to the log
 * line with the same id.
 */
@RestControllerAdvice
public class ApiExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(DelayException.class)
    public ResponseEntity<ApiResponse<Void>> delay(DelayException e) {
        if (e.httpStatus() >= 500) {
            String id = RequestIds.next();
            log.warn("request {} failed: {}", id, e.getMessage());
            String what = e instanceof StoreUnavailableException store
                    ? store.store() + " unavailable" + (store.outcome() == null ? "" : ": " + store.outcome())
                    : "internal error";
            return respond(e.httpStatus(), withId(what, id), null);
        }
        String field = e instanceof InvalidJobException invalid ? invalid.field() : null;
        return respond(e.httpStatus(), e.getMessage(), field);
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    public ResponseEntity<ApiResponse<Void>> unreadable(HttpMessageNotReadableException e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestBodyException body) {
                // the body's guard stopped the read inside the parser, which wraps what it meets
                return body(body);
            }
        }
        if (e.getCause() instanceof UnrecognizedPropertyException unknown) {
            // a misspelt "dealy" ignored would deliver the job at once
            String known = unknown.getKnownPropertyIds() == null
                    ? ""
                    : unknown.getKnownPropertyIds().stream()
                            .map(String::valueOf)
                            .sorted()
                            .collect(Collectors.joining(", ", " (known: ", ")"));
            String field = fieldPath(unknown);
            return respond(400, field + ": unknown field" + known, field);
        }
        if (e.getCause() instanceof JsonMappingException mapping
                && !mapping.getPath().isEmpty()) {
            String field = fieldPath(mapping);
            String expected = mapping instanceof MismatchedInputException mismatch ? expected(mismatch) : null;
            return respond(
                    400,
                    expected == null ? field + ": wrong type or value" : field + ": wrong type, must be " + expected,
                    field);
        }
        if (e.getCause() instanceof MismatchedInputException mismatch && expected(mismatch) != null) {
            // the whole body is of the wrong kind; Jackson's own words name Java classes
            return respond(400, "request: the body must be " + expected(mismatch), "request");
        }
        if (e.getCause() instanceof JsonProcessingException json) {
            return respond(
                    400, "request: malformed JSON (" + json.getOriginalMessage().split("\n")[0] + ")", "request");
        }
        return respond(400, "request: a JSON body is required", "request");
    }

    /** What JSON the target type takes, in the client's words (never a Java class name); null when unknown. */
    static String expected(MismatchedInputException e) {
        return expected(e.getTargetType());
    }

    /** What JSON (or query value) {@code type} takes, in the client's words; null when unknown. */
    static String expected(Class<?> type) {
        if (type == null) {
            return null;
        }
        if (type == long.class || type == Long.class || type == int.class || type == Integer.class) {
            return "a whole number" + (type == long.class || type == Long.class ? " (milliseconds)" : "");
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type.isArray() || java.util.Collection.class.isAssignableFrom(type)) {
            return "a JSON array";
        }
        if (type.isPrimitive() || type.isEnum()) {
            return null;
        }
        return "a JSON object";
    }

    /** The JSON path of the offending value: {@code delay}, {@code [2].dealy}. */
    private static String fieldPath(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
    }

    @ExceptionHandler(AdminAccessDeniedException.class)
    public ResponseEntity<ApiResponse<Void>> adminDenied(AdminAccessDeniedException e) {
        if (e.status() == 401) {
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"mykit-delay admin\"")
                    .body(ApiResponse.error(401, e.getMessage(), "Authorization"));
        }
        return respond(e.status(), e.getMessage(), null);
    }

    @ExceptionHandler(TenantAccessException.class)
    public ResponseEntity<ApiResponse<Void>> tenantDenied(TenantAccessException e) {
        if (e.status() == 401) {
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"mykit-delay\"")
                    .body(ApiResponse.error(401, e.getMessage(), "Authorization"));
        }
        return respond(e.status(), e.getMessage(), null);
    }

    @ExceptionHandler(TenantLimitException.class)
    public ResponseEntity<ApiResponse<Void>> tenantLimit(TenantLimitException e) {
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
                .body(ApiResponse.error(429, e.getMessage(), null));
    }

    @ExceptionHandler(RequestBodyException.class)
    public ResponseEntity<ApiResponse<Void>> body(RequestBodyException e) {
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(e.status());
        if (e.status() == 503) {
            answer.header(HttpHeaders.RETRY_AFTER, "1");
        }
        return answer.body(ApiResponse.error(e.status(), e.getMessage(), "request"));
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    public ResponseEntity<ApiResponse<Void>> missingParameter(MissingServletRequestParameterException e) {
        return respond(400, e.getParameterName() + ": is required", e.getParameterName());
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<ApiResponse<Void>> typeMismatch(MethodArgumentTypeMismatchException e) {
        String expected = expected(e.getRequiredType());
        return respond(
                400, e.getName() + ": wrong type" + (expected == null ? "" : ", must be " + expected), e.getName());
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    public ResponseEntity<ApiResponse<Void>> mediaType(HttpMediaTypeNotSupportedException e) {
        return respond(415, "request: Content-Type must be application/json", "request");
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    public ResponseEntity<ApiResponse<Void>> method(HttpRequestMethodNotSupportedException e) {
        return respond(405, "method " + e.getMethod() + " not allowed here", null);
    }

    @ExceptionHandler(NoResourceFoundException.class)
    public ResponseEntity<ApiResponse<Void>> noRoute(NoResourceFoundException e) {
        return respond(404, "no such route: /" + e.getResourcePath(), null);
    }

    /** The client hung up before its answer was written: nothing to answer, and nothing wrong on this side. */
    @ExceptionHandler(AsyncRequestNotUsableException.class)
    public void clientGone(AsyncRequestNotUsableException e) {
        log.debug("client gone before its answer was written: {}", e.toString());
    }

    @ExceptionHandler(Exception.class)
    public ResponseEntity<ApiResponse<Void>> unexpected(Exception e) {
        String id = RequestIds.next();
        log.error("request {} failed: unexpected error", id, e);
        return respond(500, withId("internal error", id), null);
    }

    private static String withId(String what, String requestId) {
        return what + " (request id " + requestId + ")";
    }

    /** What a failure raised outside Spring's handler call (an async poll's store error) answers, as above. */
    static ResponseEntity<ApiResponse<Void>> forFailure(RuntimeException e) {
        ApiExceptionHandler handler = new ApiExceptionHandler();
        if (e instanceof TenantAccessException tenant) {
            return handler.tenantDenied(tenant);
        }
        if (e instanceof TenantLimitException limit) {
            return handler.tenantLimit(limit);
        }
        if (e instanceof RequestBodyException body) {
            return handler.body(body);
        }
        return e instanceof DelayException delay ? handler.delay(delay) : handler.unexpected(e);
    }

    static ResponseEntity<ApiResponse<Void>> respond(int status, String message, String field) {
        return ResponseEntity.status(HttpStatus.valueOf(status)).body(ApiResponse.error(status, message, field));
    }
}
