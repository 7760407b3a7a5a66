package io.mykit.delay.queue.service;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.util.JobIds;
import io.mykit.delay.common.util.PlainNames;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Checks a job and each request's input at the boundary, before anything is stored; each failure names the field. */
public final class JobValidator {
    /** Topics become Redis key parts, RocketMQ topics and JMS queue names: keep them to a portable alphabet. */
    private static final int MAX_NAME = 128;

    private static final int MAX_PRIORITY_MS = 86_400_000;
    private static final int MAX_BIZ_KEY = 128;
    /**
     * 2000-01-01T00:00:00Z in ms: an earlier createTime is most likely seconds (today's is about 1.8e9 s), which read
     * as ms would make the job due at once.
     */
    static final long MIN_CREATE_TIME_MS = 946_684_800_000L;

    private final JobLimits limits;
    private final PullLimits pull;

    public JobValidator(JobLimits limits, PullLimits pull) {
        this.limits = limits;
        this.pull = pull;
    }

    /** The limits jobs are checked against. */
    public JobLimits limits() {
        return limits;
    }

    /** A job as stored: its id, when it has one, is a stored id (see {@link JobIds}). */
    public void validate(Job job, long now) {
        validate(job, now, null);
    }

    /**
     * A job a client pushes, to be stored behind {@code namespace} ("" for none): its id, when it chose one, is a plain
     * one that leaves room for the namespace. A null namespace checks a job as stored instead.
     */
    public void validate(Job job, long now, String namespace) {
        if (job == null) {
            throw new InvalidJobException("job", "must be a JSON object");
        }
        requireTopic(job.getTopic());
        if (job.getId() != null && namespace == null) {
            requireId("id", job.getId());
        } else if (job.getId() != null) {
            requirePlainId("id", job.getId(), JobIds.MAX_LENGTH - namespace.length());
        }
        checkText("subtopic", job.getSubtopic(), 250);
        checkText("bizKey", job.getBizKey(), MAX_BIZ_KEY);
        long maxDelay = limits.maxDelay().toMillis();
        if (job.getDelay() < 0 || job.getDelay() > maxDelay) {
            throw new InvalidJobException("delay", "must be 0.." + maxDelay + " ms, was " + job.getDelay());
        }
        if (job.getPriority() < 0 || job.getPriority() > MAX_PRIORITY_MS) {
            throw new InvalidJobException(
                    "priority", "must be 0.." + MAX_PRIORITY_MS + " ms, was " + job.getPriority());
        }
        if (job.getTtl() < 0 || job.getTtl() > maxDelay) {
            throw new InvalidJobException("ttl", "must be 0.." + maxDelay + " ms, was " + job.getTtl());
        }
        if (job.getTries() < 0 || job.getTries() > 1000) {
            throw new InvalidJobException("tries", "must be 0..1000 (0 = default), was " + job.getTries());
        }
        long createTime = job.getCreateTime();
        if (createTime != 0 && (createTime < MIN_CREATE_TIME_MS || createTime > now + maxDelay)) {
            throw new InvalidJobException(
                    "createTime",
                    "must be milliseconds since the epoch, from 2000-01-01T00:00:00Z to now + " + maxDelay
                            + " ms (0 or absent: now), was " + createTime
                            + (createTime > 0 && createTime < MIN_CREATE_TIME_MS ? " (seconds?)" : ""));
        }
        if (job.getCreateTime() > 0 && job.getCreateTime() + job.getDelay() > now + maxDelay) {
            throw new InvalidJobException("delay", "createTime + delay is more than the max delay from now");
        }
        if (job.getBody() != null) {
            requireWellFormed("body", job.getBody());
            if (job.getBody().getBytes(StandardCharsets.UTF_8).length > limits.maxBodyBytes()) {
                throw new InvalidJobException("body", "is larger than " + limits.maxBodyBytes() + " bytes");
            }
        }
    }

    /** The jobs of one push: at least one, at most the batch limit. */
    public void requireBatch(List<Job> jobs) {
        if (jobs == null || jobs.isEmpty()) {
            throw new InvalidJobException("jobs", "must be a non-empty array");
        }
        int max = limits.maxBatchSize();
        if (jobs.size() > max) {
            throw new InvalidJobException("jobs", "at most " + max + " jobs per batch, got " + jobs.size());
        }
    }

    /** A pull's reservation time and long-poll timeout, both in ms. */
    public record PullRequest(long ttr, long timeout) {}

    /** Checks a pull's input in the order the fields were always checked: topic, ttr, timeout, count. */
    public PullRequest checkPull(String topic, int count, Long ttrMs, Long timeoutMs) {
        requireTopic(topic);
        long ttr = ttr(ttrMs);
        long timeout = timeoutMs == null ? 0 : timeoutMs;
        if (timeout < 0 || timeout > pull.maxTimeout().toMillis()) {
            throw new InvalidJobException(
                    "timeout", "must be 0.." + pull.maxTimeout().toMillis() + " ms");
        }
        int maxCount = limits.maxBatchSize();
        if (count < 1 || count > maxCount) {
            throw new InvalidJobException("count", "must be 1.." + maxCount);
        }
        return new PullRequest(ttr, timeout);
    }

    /** A reservation time in ms: the default when none is given, else within the longest allowed. */
    public long ttr(Long ttrMs) {
        long ttr = ttrMs == null ? pull.defaultTtr().toMillis() : ttrMs;
        if (ttr < 1 || ttr > pull.maxTtr().toMillis()) {
            throw new InvalidJobException("ttr", "must be 1.." + pull.maxTtr().toMillis() + " ms");
        }
        return ttr;
    }

    /** The ids of a batch finish: at least one, at most the batch limit, each a job id. */
    public void requireJobIds(List<String> jobIds) {
        int maxCount = limits.maxBatchSize();
        if (jobIds == null || jobIds.isEmpty() || jobIds.size() > maxCount) {
            throw new InvalidJobException("jobIds", "must hold 1.." + maxCount + " job ids");
        }
        for (int i = 0; i < jobIds.size(); i++) {
            requireId("jobIds[" + i + "]", jobIds.get(i));
        }
    }

    /** How long a released job waits before it is due again, in ms (none given: 0). */
    public long releaseDelay(Long delayMs) {
        long delay = delayMs == null ? 0 : delayMs;
        long maxDelay = limits.maxDelay().toMillis();
        if (delay < 0 || delay > maxDelay) {
            throw new InvalidJobException("delay", "must be 0.." + maxDelay + " ms, was " + delay);
        }
        return delay;
    }

    /** A new delay, which a reschedule must name. */
    public static long requireDelay(Long delayMs) {
        if (delayMs == null) {
            throw new InvalidJobException("delay", "is required");
        }
        return delayMs;
    }

    /** A page by id: after a job id, when given, and at most {@code maxLimit} jobs. */
    public static void requirePage(String afterId, int limit, int maxLimit) {
        if (afterId != null && !JobIds.cursor(afterId)) {
            requireId("after", afterId);
        }
        if (limit < 1 || limit > maxLimit) {
            throw new InvalidJobException("limit", "must be 1.." + maxLimit + ", was " + limit);
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

    /** An id that names a stored job: a plain one, or a tenant's namespace and a plain one (see {@link JobIds}). */
    public static void requireId(String field, String id) {
        if (id == null || id.isBlank()) {
            throw new InvalidJobException(field, "is required");
        }
        if (!JobIds.stored(id)) {
            throw new InvalidJobException(field, "must be 1-128 characters of A-Z a-z 0-9 _ . : -");
        }
    }

    /** An id as a client spells it: plain, at most {@code maxLength} characters (less than 128 behind a namespace). */
    public static void requirePlainId(String field, String id, int maxLength) {
        if (id == null || id.isBlank()) {
            throw new InvalidJobException(field, "is required");
        }
        if (!JobIds.plain(id, maxLength)) {
            throw new InvalidJobException(field, "must be 1-" + maxLength + " characters of A-Z a-z 0-9 _ . : -");
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
            boolean pair = Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidJobException(
                        field,
                        "must be valid UTF-16: a lone surrogate (\\u" + Integer.toHexString(c) + ") at index " + i
                                + " is not a character");
            }
        }
    }
}
