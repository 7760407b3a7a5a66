package io.mykit.delay.controller;

import java.util.Locale;

/**
 * The host and port of a Host header ({@code localhost:8080}, {@code [::1]}) or of an Origin's authority, host in lower
 * case and the scheme's default port filled in, so that {@code http://x} and {@code x:80} compare equal.
 */
record Authority(String host, int port) {

    /** {@code text} as {@code host[:port]} or {@code [ipv6][:port]}; null when it is neither. */
    static Authority parse(String text, String scheme) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String host;
        String port;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0 || (close + 1 < text.length() && text.charAt(close + 1) != ':')) {
                return null;
            }
            host = text.substring(0, close + 1);
            port = close + 1 < text.length() ? text.substring(close + 2) : null;
        } else {
            int colon = text.indexOf(':');
            if (colon != text.lastIndexOf(':')) {
                return null;
            }
            host = colon < 0 ? text : text.substring(0, colon);
            port = colon < 0 ? null : text.substring(colon + 1);
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> c <= ' ' || c == '/' || c == '@' || c == '\\')) {
            return null;
        }
        int number;
        if (port == null) {
            number = defaultPort(scheme);
        } else if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
            return null;
        } else {
            number = Integer.parseInt(port);
        }
        return new Authority(host.toLowerCase(Locale.ROOT), number);
    }

    private static int defaultPort(String scheme) {
        return switch (scheme == null ? "" : scheme.toLowerCase(Locale.ROOT)) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
    }
}
