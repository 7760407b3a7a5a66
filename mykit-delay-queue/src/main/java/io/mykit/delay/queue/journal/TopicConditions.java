package io.mykit.delay.queue.journal;

import java.util.ArrayList;
import java.util.List;

/**
 * Topic patterns ({@code *}: any run of characters) as conditions on the topic column: names without a star in one
 * {@code IN} list, the others as {@code LIKE} patterns with {@code %}, {@code _} and the escape character escaped. Each
 * is a range of the index that starts with (bizkey, topic) unless it starts with a star.
 */
record TopicConditions(List<String> exact, List<String> like) {

    static TopicConditions of(List<String> patterns) {
        List<String> exact = new ArrayList<>();
        List<String> like = new ArrayList<>();
        for (String pattern : patterns) {
            if (pattern.indexOf('*') < 0) {
                exact.add(pattern);
            } else {
                like.add(likePattern(pattern));
            }
        }
        return new TopicConditions(List.copyOf(exact), List.copyOf(like));
    }

    /** Whether no topic matches: no condition to put in SQL. */
    boolean none() {
        return exact.isEmpty() && like.isEmpty();
    }

    private static String likePattern(String glob) {
        StringBuilder sql = new StringBuilder(glob.length() + 8);
        for (char c : glob.toCharArray()) {
            if (c == '*') {
                sql.append('%');
            } else {
                if (c == '%' || c == '_' || c == '\\') {
                    sql.append('\\');
                }
                sql.append(c);
            }
        }
        return sql.toString();
    }
}
