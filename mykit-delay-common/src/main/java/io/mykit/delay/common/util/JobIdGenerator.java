package io.mykit.delay.common.util;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Ids unique across nodes without coordination: 12 hex digits of milliseconds, a 48-bit random node tag
 * drawn at start-up, and a per-node counter. They sort by creation time on one node, which keeps
 * journal inserts at the right end of the primary key.
 */
public final class JobIdGenerator {
    private final String nodeTag;
    private final LongSupplier millis;
    private final AtomicLong counter = new AtomicLong();

    public JobIdGenerator(LongSupplier millis) {
        byte[] tag = new byte[6];
        new SecureRandom().nextBytes(tag);
        this.nodeTag = HexFormat.of().formatHex(tag);
        this.millis = millis;
    }

    public String next() {
        long seq = counter.getAndIncrement() & 0xFFFFFFL;
        return String.format("%012x%s%06x", millis.getAsLong(), nodeTag, seq);
    }
}
