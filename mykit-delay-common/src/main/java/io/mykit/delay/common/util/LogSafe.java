package io.mykit.delay.common.util;

/**
 * Caller-chosen text (a job's fields and body) as it may enter a log line: every character that could end the line or
 * rewrite what a terminal shows is written as its Java escape ({@code \n}, {@code \r}, {@code \t}, {@code \u2028}), so
 * a value can never start a line of its own. C0 and C1 controls, DEL, Unicode's line and paragraph separators and the
 * bidirectional overrides are escaped; everything else, a backslash included, is written as it is.
 */
public final class LogSafe {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private LogSafe() {}

    /** {@code text} with the characters above escaped; the same instance when it holds none, null for null. */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int first = 0;
        while (first < text.length() && !unsafe(text.charAt(first))) {
            first++;
        }
        if (first == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!unsafe(c)) {
                out.append(c);
                continue;
            }
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default ->
                    out.append("\\u")
                            .append(HEX[c >> 12 & 0xF])
                            .append(HEX[c >> 8 & 0xF])
                            .append(HEX[c >> 4 & 0xF])
                            .append(HEX[c & 0xF]);
            }
        }
        return out.toString();
    }

    /** Whether {@code c} may end a log line or change how the rest of it is shown. */
    public static boolean unsafe(char c) {
        return Character.isISOControl(c) // C0, DEL, C1 (NEL among them)
                || c == '\u2028'
                || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') // bidirectional embeddings and overrides
                || (c >= '\u2066' && c <= '\u2069'); // bidirectional isolates
    }
}
