package io.mykit.delay.client;

/** The gateway's alphabet for topics and ids, checked before a request is made so a typo fails at once. */
final class Names {
    static final int MAX_ID = 128;

    private Names() {}

    /** Whether {@code value} is 1..{@code maxLength} characters of A-Z a-z 0-9 _ . - (and : when {@code colon}). */
    static boolean plain(String value, int maxLength, boolean colon) {
        if (value == null || value.isEmpty() || value.length() > maxLength) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && c != '_' && c != '.' && c != '-' && !(colon && c == ':')) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code id} may name a stored job: a plain id, or a namespace, '~' and a plain id (the admin's view). */
    static boolean storedId(String id) {
        if (id == null) {
            return false;
        }
        int separator = id.indexOf('~');
        if (separator < 0) {
            return plain(id, MAX_ID, true);
        }
        return plain(id.substring(0, separator), MAX_ID, false) && plain(id.substring(separator + 1), MAX_ID, true);
    }
}
