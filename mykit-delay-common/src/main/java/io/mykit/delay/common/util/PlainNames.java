package io.mykit.delay.common.util;

/**
 * The portable alphabet of topics and job ids, checked by hand: a batch finish checks every id it is given, and a regex
 * match per id showed in the drain's profile.
 */
public final class PlainNames {

    private PlainNames() {}

    /**
     * Whether {@code text[from, to)} holds 1 to {@code maxLength} characters, each one of A-Z a-z 0-9 _ . - (and : when
     * {@code colon}).
     */
    public static boolean plain(String text, int from, int to, int maxLength, boolean colon) {
        int length = to - from;
        if (length < 1 || length > maxLength) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '_'
                    || c == '.'
                    || c == '-'
                    || (colon && c == ':');
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    /** {@link #plain(String, int, int, int, boolean)} over the whole text. */
    public static boolean plain(String text, int maxLength, boolean colon) {
        return plain(text, 0, text.length(), maxLength, colon);
    }
}
