package io.mykit.delay.common.tenant;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * A service sharing the gateway: its tokens (kept as SHA-256 digests only), the topic patterns it may touch, and its
 * limits (0 = none).
 */
public final class Tenant {
    /** The tenant that takes calls without a token, when it is configured with none. */
    public static final String DEFAULT = "default";

    private final String name;
    private final List<byte[]> tokenDigests;
    private final List<TopicPattern> topics;
    private final Limits limits;

    /**
     * A tenant's limits: pushes per second, pending jobs across its topics, concurrent long-polls, open streams; 0 = no
     * limit of its own.
     */
    public record Limits(double pushRate, long maxPending, int maxPolls, int maxStreams) {
        public static final Limits NONE = new Limits(0, 0, 0, 0);

        /** Limits without one of its own on streams. */
        public Limits(double pushRate, long maxPending, int maxPolls) {
            this(pushRate, maxPending, maxPolls, 0);
        }
    }

    public Tenant(String name, List<String> tokens, List<TopicPattern> topics, Limits limits) {
        this.name = name;
        this.tokenDigests = tokens.stream().map(Tenant::digest).toList();
        this.topics = List.copyOf(topics);
        this.limits = limits;
    }

    /** Patterns from a comma-separated list such as {@code order-*,pay-timeout}. */
    public static List<TopicPattern> patterns(String commaSeparated) {
        List<TopicPattern> patterns = new ArrayList<>();
        if (commaSeparated != null) {
            for (String part : commaSeparated.split(",")) {
                if (!part.isBlank()) {
                    patterns.add(new TopicPattern(part));
                }
            }
        }
        return patterns;
    }

    public String name() {
        return name;
    }

    public List<TopicPattern> topics() {
        return topics;
    }

    public Limits limits() {
        return limits;
    }

    /** Whether the tenant takes calls without a token (the migration tenant {@value #DEFAULT} only). */
    public boolean tokenless() {
        return tokenDigests.isEmpty();
    }

    /** Whether {@code topic} matches one of the tenant's patterns. */
    public boolean allows(String topic) {
        for (TopicPattern pattern : topics) {
            if (pattern.matches(topic)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code digest} is one of the tenant's tokens; every token is compared, each in constant time. */
    boolean holds(byte[] digest) {
        boolean held = false;
        for (byte[] token : tokenDigests) {
            held |= MessageDigest.isEqual(token, digest);
        }
        return held;
    }

    static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
