package io.mykit.delay.controller;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.function.Supplier;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServletServerHttpRequest;

/**
 * A request body read by hand where a handler skips Spring MVC's message converters, parsed straight from the body's
 * stream: failures raise the exception the converter would (an empty or {@code null} body is a missing one), so
 * {@link ApiExceptionHandler} words them the same.
 */
final class JsonBody {

    private JsonBody() {}

    static <T> T read(HttpServletRequest request, ObjectReader reader) {
        return read(request, reader, null);
    }

    /**
     * {@link #read(HttpServletRequest, ObjectReader)}, raising {@code whenArray}'s failure for a body that is an array.
     */
    static <T> T read(HttpServletRequest request, ObjectReader reader, Supplier<RuntimeException> whenArray) {
        T value;
        try (JsonParser parser = reader.createParser(request.getInputStream())) {
            JsonToken first = parser.nextToken();
            if (first == JsonToken.START_ARRAY && whenArray != null) {
                throw whenArray.get();
            }
            // the reader refuses trailing tokens itself when so configured
            value = first == null ? null : reader.readValue(parser);
        } catch (IOException e) {
            throw unreadable(request, e);
        }
        if (value == null) {
            throw missing(request);
        }
        return value;
    }

    /** Nothing but whitespace after the value, when the reader refuses trailing tokens. */
    static void requireEnd(JsonParser parser, ObjectReader reader) throws IOException {
        JsonToken trailing = parser.nextToken();
        if (trailing != null && reader.isEnabled(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)) {
            throw MismatchedInputException.from(
                    parser, Object.class, "Trailing token (of type " + trailing + ") found after value: not allowed");
        }
    }

    static HttpMessageNotReadableException unreadable(HttpServletRequest request, IOException e) {
        return new HttpMessageNotReadableException(
                "JSON parse error: " + e.getMessage(), e, new ServletServerHttpRequest(request));
    }

    static HttpMessageNotReadableException missing(HttpServletRequest request) {
        return new HttpMessageNotReadableException(
                "Required request body is missing", new ServletServerHttpRequest(request));
    }
}
