package io.mykit.delay.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stream's JSON text frames: {@code {"type":...}} and the type's fields. Fields and types this client does not know
 * are ignored, so a gateway may add them.
 *
 * <pre>
 * consumer -> gateway                                  gateway -> consumer
 * {"type":"finish","ids":["a","b"]}                    {"type":"jobs","jobs":[{"id":"a","topic":"t",...}]}
 * {"type":"release","id":"a","delay":1000}             {"type":"ended","action":"finish","ids":["a"],
 * {"type":"touch","id":"a","ttr":30000}                    "refused":{"b":"not held"},"dead":[]}
 * {"type":"bury","id":"a","reason":"bad body"}         {"type":"ping"}  {"type":"pong"}
 * {"type":"credit","add":4}  {"type":"ping"}           {"type":"error","message":"..."}
 * </pre>
 */
final class Frames {
    /** A burial's reason is a label for operators, not a stack trace. */
    static final int MAX_REASON = 200;

    private final ObjectMapper mapper;

    Frames(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    String finish(Collection<String> ids) {
        ObjectNode frame = frame("finish");
        ids.forEach(frame.putArray("ids")::add);
        return write(frame);
    }

    String release(String id, long delayMillis) {
        return write(frame("release").put("id", id).put("delay", delayMillis));
    }

    String touch(String id, long ttrMillis) {
        return write(frame("touch").put("id", id).put("ttr", ttrMillis));
    }

    String bury(String id, String reason) {
        return write(frame("bury").put("id", id).put("reason", shortReason(reason)));
    }

    String credit(int add) {
        return write(frame("credit").put("add", add));
    }

    String ping() {
        return write(frame("ping"));
    }

    /** The frame in {@code text}; one that is no JSON object, or has no type, is an {@link ServerFrame.Unknown}. */
    ServerFrame decode(String text) {
        JsonNode json;
        try {
            json = mapper.readTree(text);
        } catch (JsonProcessingException notJson) {
            return new ServerFrame.Unknown(null);
        }
        String type = json == null ? null : json.path("type").asText(null);
        if (type == null) {
            return new ServerFrame.Unknown(null);
        }
        return switch (type) {
            case "jobs" -> new ServerFrame.Jobs(jobs(json.path("jobs")));
            case "ping" -> new ServerFrame.Ping();
            case "pong" -> new ServerFrame.Pong();
            case "ended" ->
                new ServerFrame.Ended(
                        json.path("action").asText(""),
                        strings(json.path("ids")),
                        refused(json.path("refused")),
                        strings(json.path("dead")));
            case "error" -> new ServerFrame.ErrorReport(json.path("message").asText(""));
            default -> new ServerFrame.Unknown(type);
        };
    }

    /** A job as {@code GET /get/{topic}} writes it. */
    static ReceivedJob job(JsonNode json) {
        long createTime = json.path("createTime").asLong();
        long dueTime =
                createTime + json.path("delay").asLong() + json.path("priority").asLong();
        return new ReceivedJob(
                json.path("id").asText(),
                json.path("topic").asText(),
                textOrNull(json.path("subtopic")),
                textOrNull(json.path("bizKey")),
                textOrNull(json.path("body")),
                json.path("attempts").asInt(),
                json.path("tries").asInt(),
                Instant.ofEpochMilli(createTime),
                Instant.ofEpochMilli(dueTime));
    }

    static String shortReason(String reason) {
        String text = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
        return text.length() > MAX_REASON ? text.substring(0, MAX_REASON) : text;
    }

    private static List<ReceivedJob> jobs(JsonNode array) {
        List<ReceivedJob> jobs = new ArrayList<>(array.size());
        for (JsonNode job : array) {
            if (job.path("id").isTextual()) {
                jobs.add(job(job));
            }
        }
        return jobs;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>(array.size());
        array.forEach(value -> values.add(value.asText()));
        return values;
    }

    private static Map<String, String> refused(JsonNode object) {
        Map<String, String> refused = new LinkedHashMap<>();
        object.fields()
                .forEachRemaining(
                        entry -> refused.put(entry.getKey(), entry.getValue().asText()));
        return refused;
    }

    private static String textOrNull(JsonNode value) {
        return value.isNull() || value.isMissingNode() ? null : value.asText();
    }

    private ObjectNode frame(String type) {
        return mapper.createObjectNode().put("type", type);
    }

    private String write(ObjectNode frame) {
        try {
            return mapper.writeValueAsString(frame);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a frame of strings and numbers is always JSON", impossible);
        }
    }
}
