package io.mykit.delay.common.tenant;

import java.util.HashMap;
import java.util.Map;

/** A topic pattern of a tenant: literal characters, and {@code *} for any run of characters (none included). */
public final class TopicPattern {
    private final String pattern;

    public TopicPattern(String pattern) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("a topic pattern must not be blank");
        }
        this.pattern = pattern.trim();
    }

    public String pattern() {
        return pattern;
    }

    /** Whether {@code topic} matches the whole pattern. */
    public boolean matches(String topic) {
        if (topic == null) {
            return false;
        }
        // greedy glob match with one back-track point: linear in practice, never exponential
        int p = 0;
        int t = 0;
        int star = -1;
        int resume = 0;
        while (t < topic.length()) {
            if (p < pattern.length() && pattern.charAt(p) != '*' && pattern.charAt(p) == topic.charAt(t)) {
                p++;
                t++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = t;
            } else if (star >= 0) {
                p = star + 1;
                t = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    /** Whether some topic matches both patterns (two tenants' patterns must not share a topic a route names). */
    public boolean overlaps(TopicPattern other) {
        return overlap(pattern, 0, other.pattern, 0, new HashMap<>());
    }

    private static boolean overlap(String a, int i, String b, int j, Map<Long, Boolean> seen) {
        long key = ((long) i << 32) | j;
        Boolean known = seen.get(key);
        if (known != null) {
            return known;
        }
        boolean result;
        if (i == a.length() && j == b.length()) {
            result = true;
        } else if (i < a.length() && a.charAt(i) == '*') {
            // a's star matches nothing more, or also takes b's next character (or all b's star stands for)
            result = overlap(a, i + 1, b, j, seen) || (j < b.length() && overlap(a, i, b, j + 1, seen));
        } else if (j < b.length() && b.charAt(j) == '*') {
            result = overlap(a, i, b, j + 1, seen) || (i < a.length() && overlap(a, i + 1, b, j, seen));
        } else {
            result =
                    i < a.length() && j < b.length() && a.charAt(i) == b.charAt(j) && overlap(a, i + 1, b, j + 1, seen);
        }
        seen.put(key, result);
        return result;
    }

    @Override
    public String toString() {
        return pattern;
    }
}
