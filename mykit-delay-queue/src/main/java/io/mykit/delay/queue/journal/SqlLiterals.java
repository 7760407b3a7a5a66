package io.mykit.delay.queue.journal;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes a group of INSERTs with their values in the text, for MySQL/MariaDB: the driver's client-side binding took
 * 28% of the request threads' CPU at 1,000 single pushes a second (a property and an encoder looked up per value, the
 * statement text parsed per prepare). Strings go as hex literals with a charset introducer ({@code _utf8mb4 X'..'}):
 * no byte of a value is ever read as SQL, whatever the server's {@code sql_mode}. Only for INSERTs: a comparison with
 * such a literal may not use a column's index when the column's charset differs.
 */
final class SqlLiterals {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private SqlLiterals() {
    }

    /**
     * {@code BEGIN; s1; s2; ...; COMMIT} with each {@code ?} replaced by its argument, or null when an argument has no
     * literal form here, a statement's placeholders and arguments do not pair up, or the text would exceed
     * {@code maxChars} (a hex literal takes twice a value's bytes): the caller binds them instead.
     */
    static String inline(List<MultiRowInsert.Sql> statements, int maxChars) {
        StringBuilder out = new StringBuilder(1024).append("BEGIN");
        for (MultiRowInsert.Sql statement : statements) {
            out.append(";\n");
            String text = statement.text();
            List<Object> args = statement.args();
            int next = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c != '?') {
                    out.append(c);
                } else if (next == args.size() || !append(out, args.get(next++))) {
                    return null;
                }
                if (out.length() > maxChars) {
                    return null;
                }
            }
            if (next != args.size()) {
                return null;
            }
        }
        return out.append(";\nCOMMIT").toString();
    }

    /** Appends {@code value} as a literal; false for a type without one here. */
    static boolean append(StringBuilder out, Object value) {
        if (value == null) {
            out.append("NULL");
        } else if (value instanceof String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            out.append("_utf8mb4 X'");
            for (byte b : bytes) {
                out.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
            out.append('\'');
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte) {
            out.append(((Number) value).longValue());
        } else {
            return false;
        }
        return true;
    }
}
