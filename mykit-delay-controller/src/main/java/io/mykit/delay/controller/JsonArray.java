package io.mykit.delay.controller;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A JSON array request body read one element at a time, straight from the body's stream: past {@code max} elements the
 * read stops and {@code tooMany} is raised, so no array of millions of elements is ever built. Failures read as
 * Spring's converter words them ({@code [3].delay}), as {@link JsonBody} does for single values.
 */
final class JsonArray<T> {
    private final ObjectReader elements;
    private final ObjectReader whole;

    JsonArray(ObjectMapper mapper, Class<T> type) {
        // each element is followed by more of the array: only the whole body may refuse trailing tokens
        this.elements = mapper.readerFor(type).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.whole = mapper.readerFor(mapper.getTypeFactory().constructCollectionType(List.class, type));
    }

    List<T> read(HttpServletRequest request, int max, Supplier<RuntimeException> tooMany) {
        List<T> values;
        try (JsonParser parser = elements.createParser(request.getInputStream())) {
            values = read(parser, max, tooMany);
        } catch (IOException e) {
            throw JsonBody.unreadable(request, e);
        }
        if (values == null) {
            throw JsonBody.missing(request);
        }
        return values;
    }

    private List<T> read(JsonParser parser, int max, Supplier<RuntimeException> tooMany) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            return null;
        }
        if (first != JsonToken.START_ARRAY) {
            // anything else fails (or is null) as the whole list's reader says
            return whole.readValue(parser);
        }
        List<T> values = new ArrayList<>();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
            if (next == null) {
                throw MismatchedInputException.from(parser, List.class, "Unexpected end-of-input in an array");
            }
            if (values.size() == max) {
                throw tooMany.get();
            }
            try {
                values.add(elements.readValue(parser));
            } catch (JsonMappingException e) {
                throw JsonMappingException.wrapWithPath(e, values, values.size());
            }
        }
        JsonBody.requireEnd(parser, whole);
        return values;
    }
}
