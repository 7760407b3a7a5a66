package io.mykit.delay.client;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * Exponential back-off with jitter: the n-th wait (n from 0) is drawn from the upper half of {@code min(max, initial *
 * 2^n)}, so that clients refused together do not come back together.
 */
final class Backoff {
    private final Duration initial;
    private final Duration max;
    private final LongUnaryOperator random;

    Backoff(Duration initial, Duration max) {
        this(initial, max, bound -> ThreadLocalRandom.current().nextLong(bound + 1));
    }

    /** With {@code random} answering a number in 0..its argument, for tests. */
    Backoff(Duration initial, Duration max, LongUnaryOperator random) {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("back-off must be 0 < initial <= max, was " + initial + ", " + max);
        }
        this.initial = initial;
        this.max = max;
        this.random = Objects.requireNonNull(random);
    }

    Duration initial() {
        return initial;
    }

    Duration max() {
        return max;
    }

    /** The wait before attempt {@code n + 1}, after {@code n} failures in a row (n >= 0). */
    Duration delay(int n) {
        long ceiling = ceilingMillis(n);
        long half = ceiling / 2;
        return Duration.ofMillis(ceiling - half + random.applyAsLong(half));
    }

    /** {@code min(max, initial * 2^n)} in ms, without overflowing. */
    long ceilingMillis(int n) {
        long maxMillis = max.toMillis();
        long value = initial.toMillis();
        for (int i = 0; i < n && value < maxMillis; i++) {
            value *= 2;
        }
        return Math.min(value, maxMillis);
    }
}
