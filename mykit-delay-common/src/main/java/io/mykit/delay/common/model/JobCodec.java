package io.mykit.delay.common.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Turns a job into the record kept in the Redis job pool and back. */
public final class JobCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private JobCodec() {
    }

    public static String encode(Job job) {
        try {
            return MAPPER.writeValueAsString(job);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode job " + job.getId(), e);
        }
    }

    public static Job decode(String record) {
        try {
            return MAPPER.readValue(record, Job.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt job record: " + abbreviate(record), e);
        }
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
