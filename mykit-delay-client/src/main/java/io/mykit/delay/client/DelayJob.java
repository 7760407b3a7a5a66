package io.mykit.delay.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A job to push: its topic, body and when it falls due, either after a {@link Builder#delay delay} or at a
 * {@link Builder#dueAt due time}. Every job has an id from the moment it is built, its own or a generated one, so
 * pushing the same {@code DelayJob} again (a retry after a lost answer) stores one job.
 *
 * <pre>
 * DelayJob job = DelayJob.builder("order-close")
 *         .body("{\"orderId\":42}")
 *         .bizKey("order-42")
 *         .delay(Duration.ofMinutes(30))
 *         .build();
 * </pre>
 */
public final class DelayJob {
    private final String id;
    private final String topic;
    private final String subtopic;
    private final String bizKey;
    private final String body;
    private final Duration delay;
    private final Instant dueAt;
    private final Duration priority;
    private final Duration ttl;
    private final int tries;

    private DelayJob(Builder builder) {
        this.id = builder.id != null ? builder.id : JobIdGenerator.next();
        this.topic = builder.topic;
        this.subtopic = builder.subtopic;
        this.bizKey = builder.bizKey;
        this.body = builder.body;
        this.delay = builder.delay;
        this.dueAt = builder.dueAt;
        this.priority = builder.priority;
        this.ttl = builder.ttl;
        this.tries = builder.tries;
    }

    /** A job for {@code topic} ({@code [A-Za-z0-9_.-]{1,128}}), due at once unless a delay or due time is set. */
    public static Builder builder(String topic) {
        return new Builder(topic);
    }

    /** The job's id: the one given to the builder, else a generated one (see {@link JobIdGenerator}). */
    public String id() {
        return id;
    }

    public String topic() {
        return topic;
    }

    /** The RocketMQ tag, or null. */
    public String subtopic() {
        return subtopic;
    }

    /** The business key, or null. */
    public String bizKey() {
        return bizKey;
    }

    /** The message, or null. */
    public String body() {
        return body;
    }

    /** The delay from the push, or null when the job has a {@link #dueAt() due time} instead. */
    public Duration delay() {
        return delay;
    }

    /** The due time, or null when the job has a {@link #delay() delay} instead. */
    public Instant dueAt() {
        return dueAt;
    }

    /** Added to the due time; zero unless set. */
    public Duration priority() {
        return priority;
    }

    /** How long after its due time a job that keeps failing may live; zero = no limit. */
    public Duration ttl() {
        return ttl;
    }

    /** Deliveries or reservations before the job is dead; 0 = the gateway's default. */
    public int tries() {
        return tries;
    }

    /** The delay to send when pushed at {@code now}: the delay, or the time left until the due time (at least 0). */
    long delayMillisAt(Instant now) {
        if (dueAt == null) {
            return delay.toMillis();
        }
        return Math.max(0, Duration.between(now, dueAt).toMillis());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DelayJob job
                && id.equals(job.id)
                && topic.equals(job.topic)
                && Objects.equals(subtopic, job.subtopic)
                && Objects.equals(bizKey, job.bizKey)
                && Objects.equals(body, job.body)
                && Objects.equals(delay, job.delay)
                && Objects.equals(dueAt, job.dueAt)
                && priority.equals(job.priority)
                && ttl.equals(job.ttl)
                && tries == job.tries;
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "DelayJob[id=" + id + ", topic=" + topic + (bizKey == null ? "" : ", bizKey=" + bizKey)
                + (dueAt == null ? ", delay=" + delay : ", dueAt=" + dueAt) + "]";
    }

    /** Builds a {@link DelayJob}; not thread-safe, and each {@link #build()} without an id gets a new id. */
    public static final class Builder {
        private static final int MAX_NAME = 128;

        private String id;
        private final String topic;
        private String subtopic;
        private String bizKey;
        private String body;
        private Duration delay = Duration.ZERO;
        private Instant dueAt;
        private Duration priority = Duration.ZERO;
        private Duration ttl = Duration.ZERO;
        private int tries;

        private Builder(String topic) {
            this.topic = Objects.requireNonNull(topic, "topic");
        }

        /**
         * Your own id ({@code [A-Za-z0-9_.:-]}, at most 128 characters; behind a tenant's token at most 127 minus the
         * tenant name's length): a push of an id the gateway holds already changes nothing.
         */
        public Builder id(String id) {
            this.id = Objects.requireNonNull(id, "id");
            return this;
        }

        public Builder subtopic(String subtopic) {
            this.subtopic = subtopic;
            return this;
        }

        public Builder bizKey(String bizKey) {
            this.bizKey = bizKey;
            return this;
        }

        public Builder body(String body) {
            this.body = body;
            return this;
        }

        /** Due this long after the push (replaces a due time). */
        public Builder delay(Duration delay) {
            requireNotNegative("delay", delay);
            this.delay = delay;
            this.dueAt = null;
            return this;
        }

        /** Due at this time, by the client's clock (replaces a delay); a time past is due at once. */
        public Builder dueAt(Instant dueAt) {
            this.dueAt = Objects.requireNonNull(dueAt, "dueAt");
            this.delay = null;
            return this;
        }

        /** Added to the due time, at most a day. */
        public Builder priority(Duration priority) {
            requireNotNegative("priority", priority);
            this.priority = priority;
            return this;
        }

        /** How long after its due time a job that keeps failing may live before it is dead; zero = no limit. */
        public Builder ttl(Duration ttl) {
            requireNotNegative("ttl", ttl);
            this.ttl = ttl;
            return this;
        }

        /** Deliveries or reservations before the job is dead (0..1000; 0 = the gateway's default). */
        public Builder tries(int tries) {
            if (tries < 0 || tries > 1000) {
                throw new IllegalArgumentException("tries must be 0..1000, was " + tries);
            }
            this.tries = tries;
            return this;
        }

        /** The job; checks what the gateway would refuse for its form alone (topic and id characters). */
        public DelayJob build() {
            if (!Names.plain(topic, MAX_NAME, false)) {
                throw new IllegalArgumentException("topic must be 1-128 characters of A-Z a-z 0-9 _ . -: " + topic);
            }
            if (id != null && !Names.plain(id, MAX_NAME, true)) {
                throw new IllegalArgumentException("id must be 1-128 characters of A-Z a-z 0-9 _ . : -: " + id);
            }
            return new DelayJob(this);
        }

        private static void requireNotNegative(String name, Duration value) {
            if (Objects.requireNonNull(value, name).isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative, was " + value);
            }
        }
    }
}
