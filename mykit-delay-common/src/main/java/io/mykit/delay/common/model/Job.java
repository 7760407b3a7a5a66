package io.mykit.delay.common.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * A delayed message. Field names are the original mykit-delay's, plus {@code priority}, {@code tries} and
 * {@code attempts}. Due time = createTime + delay + priority (milliseconds since the epoch).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
// the original's job JSON also carried status (and, for ActiveMQ, buckedName): clients still send them
@JsonIgnoreProperties({"status", "buckedName"})
public final class Job {
    private String id;
    private String topic;
    private String subtopic;
    private String bizKey;
    private long delay;
    private int priority;
    private long ttl;
    private int tries;
    private int attempts;
    private String body;
    private long createTime;
    /** The due time the job had when the timer handed it over (0: not handed over); never part of its JSON. */
    @JsonIgnore
    private long handOverDue;

    public Job() {}

    public Job(
            String id,
            String topic,
            String subtopic,
            String bizKey,
            long delay,
            int priority,
            long ttl,
            int tries,
            String body,
            long createTime) {
        this.id = id;
        this.topic = topic;
        this.subtopic = subtopic;
        this.bizKey = bizKey;
        this.delay = delay;
        this.priority = priority;
        this.ttl = ttl;
        this.tries = tries;
        this.body = body;
        this.createTime = createTime;
    }

    /** The Redis score and the moment the job falls due. */
    @JsonIgnore
    public long dueTime() {
        return createTime + delay + priority;
    }

    /**
     * The due time the job had when the timer handed it over: {@link #dueTime()}, or the later time a release or a
     * retry set. Lateness counts from it.
     */
    public long handOverDue() {
        return handOverDue != 0 ? handOverDue : dueTime();
    }

    /** A copy under {@code id} with {@code attempts}, for answers that must not change a job others may share. */
    public Job copy(String id, int attempts) {
        Job copy = new Job(id, topic, subtopic, bizKey, delay, priority, ttl, tries, body, createTime);
        copy.setAttempts(attempts);
        return copy;
    }

    /** Set by the store as it hands the job over. */
    public void handOverDue(long due) {
        this.handOverDue = due;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public String getSubtopic() {
        return subtopic;
    }

    public void setSubtopic(String subtopic) {
        this.subtopic = subtopic;
    }

    public String getBizKey() {
        return bizKey;
    }

    public void setBizKey(String bizKey) {
        this.bizKey = bizKey;
    }

    public long getDelay() {
        return delay;
    }

    public void setDelay(long delay) {
        this.delay = delay;
    }

    public int getPriority() {
        return priority;
    }

    public void setPriority(int priority) {
        this.priority = priority;
    }

    public long getTtl() {
        return ttl;
    }

    public void setTtl(long ttl) {
        this.ttl = ttl;
    }

    public int getTries() {
        return tries;
    }

    public void setTries(int tries) {
        this.tries = tries;
    }

    public int getAttempts() {
        return attempts;
    }

    public void setAttempts(int attempts) {
        this.attempts = attempts;
    }

    public String getBody() {
        return body;
    }

    public void setBody(String body) {
        this.body = body;
    }

    public long getCreateTime() {
        return createTime;
    }

    public void setCreateTime(long createTime) {
        this.createTime = createTime;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Job other && Objects.equals(id, other.id);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(id);
    }

    @Override
    public String toString() {
        return "Job{id=" + id + ", topic=" + topic + ", due=" + dueTime() + "}";
    }
}
