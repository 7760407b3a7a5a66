package io.mykit.delay.config;

import java.time.Duration;
import java.util.List;

/** Steps the start-up checks share: a failed check adds its message, so one error names every bad key. */
final class Checks {
    private Checks() {}

    static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }

    static void check(List<String> errors, boolean ok, String message) {
        if (!ok) {
            errors.add(message);
        }
    }
}
