package io.mykit.delay.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** The {@code Retry-After} header (RFC 9110): seconds, or an HTTP date. */
final class RetryAfter {
    private RetryAfter() {}

    /** How long to wait from {@code now}; empty when the header is absent or neither form (never negative). */
    static Optional<Duration> parse(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String value = header.trim();
        if (value.chars().allMatch(Character::isDigit)) {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
            } catch (NumberFormatException tooLong) {
                return Optional.empty();
            }
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
            Duration left = Duration.between(now, at);
            return Optional.of(left.isNegative() ? Duration.ZERO : left);
        } catch (DateTimeParseException notADate) {
            return Optional.empty();
        }
    }
}
