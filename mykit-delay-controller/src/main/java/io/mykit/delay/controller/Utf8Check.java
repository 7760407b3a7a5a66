package io.mykit.delay.controller;

/**
 * Strict UTF-8 (RFC 3629) checked as bytes arrive, in pieces of any size: no overlong forms, no surrogates, nothing
 * beyond U+10FFFF. A lenient decoder would turn such bytes into other characters.
 */
final class Utf8Check {
    /** Continuation bytes the current character still needs. */
    private int need;
    /** The range the next continuation byte must fall in (narrower after E0, ED, F0 and F4). */
    private int low = 0x80;

    private int high = 0xBF;

    /** Whether these bytes continue valid UTF-8. */
    boolean accept(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            int b = bytes[i];
            if (b >= 0 && need == 0) {
                continue;
            }
            b &= 0xFF;
            if (need > 0) {
                if (b < low || b > high) {
                    return false;
                }
                need--;
                low = 0x80;
                high = 0xBF;
            } else if (b >= 0xC2 && b <= 0xDF) {
                need = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                need = 2;
                low = b == 0xE0 ? 0xA0 : 0x80;
                high = b == 0xED ? 0x9F : 0xBF;
            } else if (b >= 0xF0 && b <= 0xF4) {
                need = 3;
                low = b == 0xF0 ? 0x90 : 0x80;
                high = b == 0xF4 ? 0x8F : 0xBF;
            } else {
                return false;
            }
        }
        return true;
    }

    /** Whether the bytes so far end on a whole character. */
    boolean complete() {
        return need == 0;
    }
}
