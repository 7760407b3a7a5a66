package io.mykit.delay.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The gateway's answer: {@code {"success","code","message","data","field"}}. With {@code http.legacy-status} every
 * answer is HTTP 200 and {@code code} holds the status, so the status is read from the body when it has one.
 */
record Envelope(boolean success, int status, String message, String field, JsonNode data) {
    private static final int MAX_TEXT = 200;

    static Envelope read(ObjectMapper mapper, int httpStatus, byte[] body) {
        JsonNode json;
        try {
            json = body.length == 0 ? null : mapper.readTree(body);
        } catch (IOException notJson) {
            json = null;
        }
        if (json == null || !json.isObject() || !json.has("success")) {
            // not the gateway's envelope: a proxy's page, an empty answer
            boolean ok = httpStatus / 100 == 2;
            return new Envelope(ok, httpStatus, ok ? "ok" : text(body, httpStatus), null, NullNode.getInstance());
        }
        int status = json.path("code").asInt(httpStatus);
        boolean success = json.path("success").asBoolean() && httpStatus / 100 == 2;
        if (!success && status / 100 == 2) {
            status = httpStatus / 100 == 2 ? 500 : httpStatus;
        }
        String field = json.path("field").isTextual() ? json.path("field").asText() : null;
        return new Envelope(success, status, json.path("message").asText(""), field, json.path("data"));
    }

    private static String text(byte[] body, int status) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            return "HTTP " + status + " without a body";
        }
        return text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "..." : text;
    }
}
