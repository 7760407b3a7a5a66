package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.util.PlainNames;
import io.mykit.delay.config.DelayProperties;

import java.nio.charset.StandardCharsets;

/** Checks a job at the boundary, before anything is stored; each failure names the field. */
public final class JobValidator {
    /** Topics become Redis key parts, RocketMQ topics and JMS queue names: keep them to a portable alphabet. */
    private static final int MAX_NAME = 128;
    private static final int MAX_PRIORITY_MS = 86_400_000;
    private static final int MAX_BIZ_KEY = 128;

    private final DelayProperties.Limits limits;

    public JobValidator(DelayProperties.Limits limits) {
        this.limits = limits;
    }

    public void validate(Job job, long now) {
        if (job == null) {
            throw new InvalidJobException("job", "must be a JSON object");
        }
        requireTopic(job.getTopic());
        if (job.getId() != null) {
            requireId("id", job.getId());
        }
        checkText("subtopic", job.getSubtopic(), 250);
        checkText("bizKey", job.getBizKey(), MAX_BIZ_KEY);
        long maxDelay = limits.getMaxDelay().toMillis();
        if (job.getDelay() < 0 || job.getDelay() > maxDelay) {
            throw new InvalidJobException("delay", "must be 0.." + maxDelay + " ms, was " + job.getDelay());
        }
        if (job.getPriority() < 0 || job.getPriority() > MAX_PRIORITY_MS) {
            throw new InvalidJobException("priority", "must be 0.." + MAX_PRIORITY_MS + " ms, was " + job.getPriority());
        }
        if (job.getTtl() < 0 || job.getTtl() > maxDelay) {
            throw new InvalidJobException("ttl", "must be 0.." + maxDelay + " ms, was " + job.getTtl());
        }
        if (job.getTries() < 0 || job.getTries() > 1000) {
            throw new InvalidJobException("tries", "must be 0..1000 (0 = default), was " + job.getTries());
        }
        if (job.getCreateTime() < 0 || job.getCreateTime() > now + maxDelay) {
            throw new InvalidJobException("createTime", "must be epoch millis no later than now + max delay");
        }
        if (job.getCreateTime() > 0 && job.getCreateTime() + job.getDelay() > now + maxDelay) {
            throw new InvalidJobException("delay", "createTime + delay is more than the max delay from now");
        }
        if (job.getBody() != null) {
            requireWellFormed("body", job.getBody());
            if (job.getBody().getBytes(StandardCharsets.UTF_8).length > limits.getMaxBodyBytes()) {
                throw new InvalidJobException("body", "is larger than " + limits.getMaxBodyBytes() + " bytes");
            }
        }
    }

    /** A topic names Redis keys and broker destinations, so it must keep to the portable alphabet. */
    public static void requireTopic(String topic) {
        if (topic == null || topic.isBlank()) {
            throw new InvalidJobException("topic", "is required");
        }
        if (!PlainNames.plain(topic, MAX_NAME, false)) {
            throw new InvalidJobException("topic", "must be 1-128 characters of A-Z a-z 0-9 _ . -");
        }
    }

    public static void requireId(String field, String id) {
        if (id == null || id.isBlank()) {
            throw new InvalidJobException(field, "is required");
        }
        if (!PlainNames.plain(id, MAX_NAME, true)) {
            throw new InvalidJobException(field, "must be 1-128 characters of A-Z a-z 0-9 _ . : -");
        }
    }

    /** A bizKey to find jobs by: present, and one a push would have accepted. */
    public static void requireBizKey(String bizKey) {
        if (bizKey == null || bizKey.isEmpty()) {
            throw new InvalidJobException("bizKey", "is required");
        }
        checkText("bizKey", bizKey, MAX_BIZ_KEY);
    }

    private static void checkText(String field, String value, int maxLength) {
        if (value == null) {
            return;
        }
        if (value.length() > maxLength) {
            throw new InvalidJobException(field, "must be at most " + maxLength + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidJobException(field, "must not contain control characters");
        }
        requireWellFormed(field, value);
    }

    /**
     * A lone surrogate is no character: UTF-8 (the journal, Redis, the brokers) cannot carry it, so it would be stored
     * as something else and no look-up would find the value again.
     */
    private static void requireWellFormed(String field, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidJobException(field, "must be valid UTF-16: a lone surrogate (\\u"
                        + Integer.toHexString(c) + ") at index " + i + " is not a character");
            }
        }
    }
}
