package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServletServerHttpRequest;

/**
 * A request body read by hand where a handler skips Spring MVC's message converters: failures raise the exception the
 * converter would (an empty or {@code null} body is a missing one), so {@link ApiExceptionHandler} words them the same.
 */
final class JsonBody {

    private JsonBody() {}

    static <T> T read(HttpServletRequest request, ObjectReader reader) {
        T value;
        try {
            byte[] body = request.getInputStream().readAllBytes();
            value = body.length == 0 ? null : reader.readValue(body);
        } catch (IOException e) {
            throw new HttpMessageNotReadableException(
                    "JSON parse error: " + e.getMessage(), e, new ServletServerHttpRequest(request));
        }
        if (value == null) {
            throw new HttpMessageNotReadableException(
                    "Required request body is missing", new ServletServerHttpRequest(request));
        }
        return value;
    }
}
