package io.mykit.delay.client;

import java.security.SecureRandom;
import java.time.Clock;

/**
 * The ids the client gives jobs pushed without one: UUID version 7 strings ({@code 0190f5c4-7a1b-7c3d-9e4f-...}, 36
 * characters of 0-9 a-f and '-'), the milliseconds of their creation first and 74 random bits after. Any gateway
 * accepts them (behind a tenant's token too: tenant names are at most 64 characters), they sort by creation time, and
 * one id cannot be guessed from another.
 */
public final class JobIdGenerator {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JobIdGenerator() {}

    /** A new id, by the system clock. */
    public static String next() {
        return next(Clock.systemUTC());
    }

    static String next(Clock clock) {
        long millis = clock.millis();
        long randomHigh = RANDOM.nextLong();
        long randomLow = RANDOM.nextLong();
        // layout of RFC 9562: 48 bits of time, version 7, 12 random bits, variant 10, 62 random bits
        long high = (millis << 16) | 0x7000L | (randomHigh & 0x0FFFL);
        long low = (randomLow & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        char[] text = new char[36];
        int at = 0;
        at = hex(high >>> 32, 8, text, at);
        text[at++] = '-';
        at = hex(high >>> 16, 4, text, at);
        text[at++] = '-';
        at = hex(high, 4, text, at);
        text[at++] = '-';
        at = hex(low >>> 48, 4, text, at);
        text[at++] = '-';
        hex(low, 12, text, at);
        return new String(text);
    }

    /** Writes the lowest {@code digits} hex digits of {@code value} at {@code at}; answers where writing ended. */
    private static int hex(long value, int digits, char[] text, int at) {
        for (int i = digits - 1; i >= 0; i--) {
            text[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
        return at + digits;
    }
}
