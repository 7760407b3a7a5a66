package io.mykit.delay.controller;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Short random ids that tie a failed request's public answer to its log line, which holds the details. */
final class RequestIds {
    private static final HexFormat HEX = HexFormat.of();

    private RequestIds() {}

    /** 12 hex digits: 48 random bits, unique enough among one gateway's failures to find the line. */
    static String next() {
        return HEX.toHexDigits(ThreadLocalRandom.current().nextLong()).substring(4);
    }
}
