package io.mykit.delay.queue.store;

import java.math.BigDecimal;

/**
 * A job leaving its bucket, as its old bucket held it: record, due score or in-flight deadline (null when not in that
 * stage), pull reservations (null when none), and its pull topic when it sat in a ready list.
 */
record MovingJob(String id, String record, Double due, Double deadline, String reservations, String readyTopic) {

    /** A score as ZADD takes it back exactly: plain digits, never an exponent. */
    static String score(Double score) {
        return score == null ? "" : BigDecimal.valueOf(score).toPlainString();
    }
}
