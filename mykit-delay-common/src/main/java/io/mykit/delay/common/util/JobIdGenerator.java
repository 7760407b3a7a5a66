package io.mykit.delay.common.util;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Ids unique across nodes without coordination: 12 hex digits of milliseconds, a 48-bit random node tag drawn at
 * start-up, and a per-node counter. They sort by creation time on one node, which keeps journal inserts at the right
 * end of the primary key.
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
        // hand-rolled hex: every push makes an id, and String.format parses its pattern each time
        char[] id = new char[12 + 12 + 6];
        putHex(id, 0, millis.getAsLong(), 12);
        nodeTag.getChars(0, 12, id, 12);
        putHex(id, 24, seq, 6);
        return new String(id);
    }

    /** Writes the low {@code digits} hex digits of {@code value} at {@code from}, zero-padded. */
    private static void putHex(char[] into, int from, long value, int digits) {
        for (int i = from + digits - 1; i >= from; i--) {
            into[i] = Character.forDigit((int) (value & 0xF), 16);
            value >>>= 4;
        }
    }
}
