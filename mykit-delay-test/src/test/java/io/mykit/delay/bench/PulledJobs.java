package io.mykit.delay.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a pull answer's jobs ({@code data}: one job, an array of them, or null) with Jackson's streaming parser. The
 * pullers read a million of them in a drain: a tree per answer (a LinkedHashMap per job) took 13% of the bench JVM's
 * samples on the machine it shares with the gateway.
 */
final class PulledJobs {
    private static final JsonFactory JSON = new JsonFactory();

    /** A pulled job's id and the due time it was pushed with (createTime + delay + priority). */
    record Pulled(String id, long due) {}

    /** What one answer held. */
    record Answer(List<Pulled> jobs, boolean batch) {}

    private PulledJobs() {}

    /** The jobs of a GET /get answer; none when {@code data} is null, absent or empty. */
    static Answer parse(String reply) throws IOException {
        try (JsonParser parser = JSON.createParser(reply)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT, reply);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (!"data".equals(field)) {
                    parser.skipChildren();
                    continue;
                }
                if (value == JsonToken.START_ARRAY) {
                    List<Pulled> jobs = new ArrayList<>();
                    JsonToken element;
                    while ((element = parser.nextToken()) == JsonToken.START_OBJECT) {
                        jobs.add(job(parser, reply));
                    }
                    // anything but the array's end would cut the batch short unseen: the drain would count it missing
                    if (element != JsonToken.END_ARRAY) {
                        throw new IOException("a pulled batch with an element that is no job: " + reply);
                    }
                    return new Answer(jobs, true);
                }
                if (value == JsonToken.START_OBJECT) {
                    return new Answer(List.of(job(parser, reply)), false);
                }
                return new Answer(List.of(), false);
            }
            return new Answer(List.of(), false);
        }
    }

    /** One job object, the parser on its START_OBJECT; leaves it on the matching END_OBJECT. */
    private static Pulled job(JsonParser parser, String reply) throws IOException {
        String id = null;
        long due = 0;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "id" -> id = parser.getValueAsString();
                case "createTime", "delay", "priority" -> due += parser.getValueAsLong();
                default -> parser.skipChildren();
            }
        }
        if (id == null) {
            throw new IOException("a pulled job without an id: " + reply);
        }
        return new Pulled(id, due);
    }

    private static void expect(JsonToken actual, JsonToken wanted, String reply) throws IOException {
        if (actual != wanted) {
            throw new IOException("not a JSON object: " + reply);
        }
    }
}
