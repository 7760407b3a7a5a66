package io.mykit.delay.queue.dispatch.broker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job as the original mykit-delay sent it to ActiveMQ: one JSON text with its field names ({@code topic, subtopic,
 * id, bizKey, delay, ttl, body, createTime, status}), so consumers written against it parse it unchanged. The status is
 * Ready's code, the state a job is in while it is handed over.
 */
final class OriginalJobJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private OriginalJobJson() {}

    static String of(Job job) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("topic", job.getTopic());
        fields.put("subtopic", job.getSubtopic());
        fields.put("id", job.getId());
        fields.put("bizKey", job.getBizKey());
        fields.put("delay", job.getDelay());
        fields.put("ttl", job.getTtl());
        fields.put("body", job.getBody());
        fields.put("createTime", job.getCreateTime());
        fields.put("status", JobStatus.Ready.code());
        try {
            return MAPPER.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a job that cannot be written as JSON: " + job, e);
        }
    }
}
