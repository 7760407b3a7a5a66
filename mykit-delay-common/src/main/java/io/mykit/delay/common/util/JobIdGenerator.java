package io.mykit.delay.common.util;

import java.security.SecureRandom;
import java.util.function.LongSupplier;

/**
 * Ids unique across nodes without coordination and that nobody can guess from another: 12 hex digits of milliseconds,
 * then 72 random bits (18 hex digits) from a SecureRandom. They sort by creation time to the millisecond, which keeps
 * journal inserts near the right end of the primary key.
 */
public final class JobIdGenerator {
    private static final int MILLIS_DIGITS = 12;
    private static final int RANDOM_BYTES = 9;

    private final LongSupplier millis;
    /** One per generator: seeding is the expensive part, a draw of 9 bytes is not. */
    private final SecureRandom random = new SecureRandom();

    public JobIdGenerator(LongSupplier millis) {
        this.millis = millis;
    }

    public String next() {
        byte[] noise = new byte[RANDOM_BYTES];
        random.nextBytes(noise);
        // hand-rolled hex: every push makes an id, and String.format parses its pattern each time
        char[] id = new char[MILLIS_DIGITS + 2 * RANDOM_BYTES];
        putHex(id, 0, millis.getAsLong(), MILLIS_DIGITS);
        for (int i = 0; i < RANDOM_BYTES; i++) {
            putHex(id, MILLIS_DIGITS + 2 * i, noise[i] & 0xFF, 2);
        }
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
